import {
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  type PublicClient,
  publicActions,
  type TestClient,
  type Transport,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startAnvil } from "./anvil";
import { compileContract, TOKEN_SOURCE_PATH } from "./compile";
import { type DevAccount, type DevAccounts, devAccounts } from "./dev-accounts";
import { eip3009TokenAbi } from "./token-abi";
import { setUpToken } from "./token-setup";

export type { DevAccount, DevAccounts } from "./dev-accounts";
export { revertReason } from "./revert-reason";
export { eip3009TokenAbi } from "./token-abi";

export interface TokenOptions {
  /** Install the token here (anvil_setCode) instead of deploying it to a fresh address. */
  address?: Address;
  name?: string;
  version?: string;
  symbol?: string;
}

export interface LocalChainOptions {
  /** 0 or undefined: a free port. */
  port?: number;
  /** Default 31337. */
  chainId?: number;
  token?: TokenOptions;
  /** Token atomic units minted to each payer. Default 1000 tokens (1_000_000_000n). */
  fund?: bigint;
  /** Number of funded payer accounts, 0..7. Default 3. */
  payers?: number;
  /** An empty block every this many seconds besides each transaction's (see AnvilOptions). */
  blockTimeSeconds?: number;
}

export interface LocalToken {
  address: Address;
  name: string;
  version: string;
  symbol: string;
  decimals: 6;
  abi: typeof eip3009TokenAbi;
}

export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  chain: Chain;
  token: LocalToken;
  /** anvil dev accounts; each also holds 10000 ETH for gas. */
  accounts: DevAccounts;
  publicClient: PublicClient<Transport, Chain>;
  testClient: TestClient<"anvil", Transport, Chain>;
  /** A wallet client that also has the public actions (what x402 facilitators call a signer). */
  walletClient(account: DevAccount): LocalWalletClient;
  balanceOf(address: Address): Promise<bigint>;
  stop(): Promise<void>;
}

/**
 * Chain and token as the official x402 v1 `verify` expects for network "base-sepolia": chain 84532
 * with Base Sepolia USDC's address and EIP-712 name/version. Use as `startLocalChain(BASE_SEPOLIA)`.
 */
export const BASE_SEPOLIA = {
  chainId: 84532,
  token: {
    address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    name: "USDC",
    version: "2",
    symbol: "USDC",
  },
} as const satisfies LocalChainOptions;

const DEFAULT_TOKEN = { name: "USD Coin", version: "2", symbol: "USDC" } as const;
const DEFAULT_FUND = 1_000_000_000n;
// anvil mines on every transaction; poll receipts quickly instead of viem's 4 s default.
const POLLING_MS = 50;

export type LocalWalletClient = ReturnType<typeof createLocalWalletClient>;

/**
 * Sends of one account in turn, per chain: sent at once (a receiver settling parallel
 * payments), two read the same nonce and one failed, its payment refused. Only the sending
 * waits its turn: each then takes the next nonce, and receipts are awaited side by side.
 */
function sendsInTurn() {
  const sending = new Map<string, Promise<unknown>>();
  return <T>(address: string, send: () => Promise<T>): Promise<T> => {
    const sent = (sending.get(address) ?? Promise.resolve()).then(send, send);
    sending.set(
      address,
      sent.catch(() => undefined),
    );
    return sent;
  };
}

function createLocalWalletClient(
  account: DevAccount,
  chain: Chain,
  transport: Transport,
  inTurn: ReturnType<typeof sendsInTurn>,
) {
  const client = createWalletClient({
    account: privateKeyToAccount(account.privateKey),
    chain,
    transport,
    pollingInterval: POLLING_MS,
  }).extend(publicActions);
  const { address } = client.account;
  return client.extend(() => ({
    writeContract: ((args) =>
      inTurn(address, () => client.writeContract(args))) as typeof client.writeContract,
    sendTransaction: ((args) =>
      inTurn(address, () => client.sendTransaction(args))) as typeof client.sendTransaction,
  }));
}

/** Starts anvil, puts an EIP-3009 token on it, and funds the payer accounts with it. */
export async function startLocalChain(options: LocalChainOptions = {}): Promise<LocalChain> {
  const accounts = devAccounts(options.payers);
  const [anvilResult, artifactResult] = await Promise.allSettled([
    startAnvil({
      port: options.port,
      chainId: options.chainId,
      ...(options.blockTimeSeconds === undefined
        ? {}
        : { blockTimeSeconds: options.blockTimeSeconds }),
    }),
    compileContract(TOKEN_SOURCE_PATH, "EIP3009Token"),
  ]);
  if (anvilResult.status === "rejected") throw anvilResult.reason;
  const anvil = anvilResult.value;
  try {
    if (artifactResult.status === "rejected") throw artifactResult.reason;
    const chain = defineChain({
      id: anvil.chainId,
      name: `anvil ${anvil.chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    });
    const transport = http(anvil.rpcUrl);
    const publicClient = createPublicClient({ chain, transport, pollingInterval: POLLING_MS });
    const testClient = createTestClient({
      chain,
      transport,
      mode: "anvil",
      pollingInterval: POLLING_MS,
    });
    const inTurn = sendsInTurn();
    const walletClient = (account: DevAccount) =>
      createLocalWalletClient(account, chain, transport, inTurn);

    const tokenOptions = { ...DEFAULT_TOKEN, ...options.token };
    const fund = options.fund ?? DEFAULT_FUND;
    const address = await setUpToken({
      publicClient,
      testClient,
      deployer: walletClient(accounts.deployer),
      artifact: artifactResult.value,
      address: tokenOptions.address,
      name: tokenOptions.name,
      symbol: tokenOptions.symbol,
      version: tokenOptions.version,
      mints: fund > 0n ? accounts.payers.map((payer) => ({ to: payer.address, amount: fund })) : [],
    });

    return {
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      chain,
      token: {
        address,
        name: tokenOptions.name,
        version: tokenOptions.version,
        symbol: tokenOptions.symbol,
        decimals: 6,
        abi: eip3009TokenAbi,
      },
      accounts,
      publicClient,
      testClient,
      walletClient,
      balanceOf: (owner) =>
        publicClient.readContract({
          address,
          abi: eip3009TokenAbi,
          functionName: "balanceOf",
          args: [owner],
        }),
      stop: () => anvil.stop(),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
