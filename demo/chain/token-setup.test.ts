import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnvilProcess, startAnvil } from "./anvil";
import { type ContractArtifact, compileContract, TOKEN_SOURCE_PATH } from "./compile";
import { devAccounts } from "./dev-accounts";
import { revertReason } from "./revert-reason";
import { eip3009TokenAbi } from "./token-abi";
import { setUpToken, type TokenSetup } from "./token-setup";

describe("setUpToken", () => {
  let anvil: AnvilProcess;
  let artifact: ContractArtifact;
  let base: Omit<TokenSetup, "name" | "symbol" | "version" | "mints">;
  const { deployer, payee, payers } = devAccounts(1);
  const payer = payers[0] ?? deployer;

  beforeAll(async () => {
    [anvil, artifact] = await Promise.all([
      startAnvil(),
      compileContract(TOKEN_SOURCE_PATH, "EIP3009Token"),
    ]);
    const chain = defineChain({
      id: anvil.chainId,
      name: "anvil",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    });
    const transport = http(anvil.rpcUrl);
    base = {
      publicClient: createPublicClient({ chain, transport, pollingInterval: 50 }),
      testClient: createTestClient({ chain, transport, mode: "anvil" }),
      deployer: createWalletClient({
        chain,
        transport,
        account: privateKeyToAccount(deployer.privateKey),
      }),
      artifact,
    };
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  const read = (address: Address) => ({
    name: base.publicClient.readContract({ address, abi: eip3009TokenAbi, functionName: "name" }),
    version: base.publicClient.readContract({
      address,
      abi: eip3009TokenAbi,
      functionName: "version",
    }),
    minter: base.publicClient.readContract({
      address,
      abi: eip3009TokenAbi,
      functionName: "minter",
    }),
  });

  it("deploys, initializes once, and mints", async () => {
    const address = await setUpToken({
      ...base,
      name: "Test Dollar",
      symbol: "TUSD",
      version: "7",
      mints: [{ to: payer.address, amount: 5_000_000n }],
    });
    expect(address).toBe(getAddress(address));
    expect(address).not.toBe(address.toLowerCase());
    const token = read(address);
    expect(await token.name).toBe("Test Dollar");
    expect(await token.version).toBe("7");
    expect(await token.minter).toBe(deployer.address);
    expect(
      await base.publicClient.readContract({
        address,
        abi: eip3009TokenAbi,
        functionName: "balanceOf",
        args: [payer.address],
      }),
    ).toBe(5_000_000n);

    const again = base.publicClient.simulateContract({
      account: deployer.address,
      address,
      abi: eip3009TokenAbi,
      functionName: "initialize",
      args: ["Other", "O", "1", payee.address],
    });
    expect(revertReason(await again.catch((e: unknown) => e))).toBe(
      "FiatToken: contract is already initialized",
    );
    const mint = base.publicClient.simulateContract({
      account: payee.address,
      address,
      abi: eip3009TokenAbi,
      functionName: "mint",
      args: [payee.address, 1n],
    });
    expect(revertReason(await mint.catch((e: unknown) => e))).toBe(
      "FiatToken: caller is not a minter",
    );
  });

  it("installs the runtime code at a given address and initializes it there", async () => {
    const fixed: Address = "0x00000000000000000000000000000000000c0de5";
    const address = await setUpToken({
      ...base,
      address: fixed,
      name: "USDC",
      symbol: "USDC",
      version: "2",
      mints: [],
    });
    expect(address).toBe(getAddress(fixed));
    expect(await base.publicClient.getCode({ address })).toBe(artifact.deployedBytecode);
    expect(await read(address).name).toBe("USDC");
    expect(await read(address).version).toBe("2");
  });
});
