import {
  type Address,
  type Hex,
  hashDomain,
  parseEventLogs,
  parseSignature,
  type TypedDataDomain,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from "../../lib/protocol/rails/eip3009";
import {
  BASE_SEPOLIA,
  type DevAccount,
  eip3009TokenAbi,
  type LocalChain,
  revertReason,
  startLocalChain,
} from "./index";

const authorizationFields = TRANSFER_WITH_AUTHORIZATION_TYPES.TransferWithAuthorization;
const types = {
  TransferWithAuthorization: authorizationFields,
  ReceiveWithAuthorization: authorizationFields,
  CancelAuthorization: [
    { name: "authorizer", type: "address" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

interface Authorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

const randomNonce = (): Hex => toHex(crypto.getRandomValues(new Uint8Array(32)));

const domainOf = (chain: LocalChain, override: Partial<TypedDataDomain> = {}) => ({
  name: chain.token.name,
  version: chain.token.version,
  chainId: chain.chainId,
  verifyingContract: chain.token.address,
  ...override,
});

function signAuthorization(
  chain: LocalChain,
  signer: DevAccount,
  message: Authorization,
  options: {
    primaryType?: "TransferWithAuthorization" | "ReceiveWithAuthorization";
    domain?: Partial<TypedDataDomain>;
  } = {},
): Promise<Hex> {
  return privateKeyToAccount(signer.privateKey).signTypedData({
    domain: domainOf(chain, options.domain),
    types,
    primaryType: options.primaryType ?? "TransferWithAuthorization",
    message,
  });
}

async function now(chain: LocalChain): Promise<bigint> {
  return (await chain.publicClient.getBlock()).timestamp;
}

async function authorization(
  chain: LocalChain,
  from: DevAccount,
  to: DevAccount,
  value: bigint,
): Promise<Authorization> {
  const t = await now(chain);
  return {
    from: from.address,
    to: to.address,
    value,
    validAfter: 0n,
    validBefore: t + 600n,
    nonce: randomNonce(),
  };
}

const args = (a: Authorization) =>
  [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce] as const;

/** Submits with the bytes overload from the facilitator, and returns the mined receipt. */
async function submit(chain: LocalChain, a: Authorization, signature: Hex) {
  const hash = await chain.walletClient(chain.accounts.facilitator).writeContract({
    address: chain.token.address,
    abi: eip3009TokenAbi,
    functionName: "transferWithAuthorization",
    args: [...args(a), signature],
  });
  return chain.publicClient.waitForTransactionReceipt({ hash });
}

/** The revert string a facilitator would get for this authorization (bytes overload). */
async function rejection(
  chain: LocalChain,
  a: Authorization,
  signature: Hex,
): Promise<string | undefined> {
  const attempt = chain.publicClient.simulateContract({
    account: chain.accounts.facilitator.address,
    address: chain.token.address,
    abi: eip3009TokenAbi,
    functionName: "transferWithAuthorization",
    args: [...args(a), signature],
  });
  return attempt.then(
    () => "(did not revert)",
    (error: unknown) => revertReason(error),
  );
}

const authorizationState = (chain: LocalChain, a: Authorization) =>
  chain.publicClient.readContract({
    address: chain.token.address,
    abi: eip3009TokenAbi,
    functionName: "authorizationState",
    args: [a.from, a.nonce],
  });

describe("startLocalChain (chain 31337, deployed token)", () => {
  let chain: LocalChain;
  let payer: DevAccount;
  let payee: DevAccount;
  beforeAll(async () => {
    chain = await startLocalChain({ fund: 50_000_000n });
    payer = chain.accounts.payers[0] ?? chain.accounts.deployer;
    payee = chain.accounts.payee;
  });
  afterAll(async () => {
    await chain?.stop();
  });

  it("reports the token it deployed and funds every payer", async () => {
    expect(chain.chainId).toBe(31337);
    expect(await chain.publicClient.getChainId()).toBe(31337);
    expect(chain.token).toMatchObject({
      name: "USD Coin",
      version: "2",
      symbol: "USDC",
      decimals: 6,
    });
    const read = <F extends "name" | "version" | "symbol" | "decimals">(functionName: F) =>
      chain.publicClient.readContract({
        address: chain.token.address,
        abi: eip3009TokenAbi,
        functionName,
      });
    expect([
      await read("name"),
      await read("version"),
      await read("symbol"),
      await read("decimals"),
    ]).toEqual(["USD Coin", "2", "USDC", 6]);
    expect(chain.accounts.payers).toHaveLength(3);
    for (const p of chain.accounts.payers)
      expect(await chain.balanceOf(p.address)).toBe(50_000_000n);
    expect(await chain.balanceOf(payee.address)).toBe(0n);
    expect(
      await chain.publicClient.getBalance({ address: chain.accounts.facilitator.address }),
    ).toBeGreaterThan(10n ** 18n);
  });

  it("computes the EIP-712 domain separator for this chain and address", async () => {
    const separator = await chain.publicClient.readContract({
      address: chain.token.address,
      abi: eip3009TokenAbi,
      functionName: "DOMAIN_SEPARATOR",
    });
    expect(separator).toBe(
      hashDomain({
        domain: {
          name: chain.token.name,
          version: chain.token.version,
          chainId: BigInt(chain.chainId),
          verifyingContract: chain.token.address,
        },
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "version", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
        },
      }),
    );
  });

  it("moves tokens with the bytes-signature overload, flips authorizationState, and refuses a replay", async () => {
    const a = await authorization(chain, payer, payee, 1_250_000n);
    const signature = await signAuthorization(chain, payer, a);
    const payerBefore = await chain.balanceOf(payer.address);
    const payeeBefore = await chain.balanceOf(payee.address);
    expect(await authorizationState(chain, a)).toBe(false);

    const receipt = await submit(chain, a, signature);
    expect(receipt.status).toBe("success");
    expect(await chain.balanceOf(payer.address)).toBe(payerBefore - 1_250_000n);
    expect(await chain.balanceOf(payee.address)).toBe(payeeBefore + 1_250_000n);
    expect(await authorizationState(chain, a)).toBe(true);
    const events = parseEventLogs({ abi: eip3009TokenAbi, logs: receipt.logs });
    expect(events.map((e) => e.eventName)).toEqual(["AuthorizationUsed", "Transfer"]);
    expect(events[0]?.args).toEqual({ authorizer: payer.address, nonce: a.nonce });

    expect(await rejection(chain, a, signature)).toBe(
      "FiatTokenV2_2: authorization is used or canceled",
    );
  });

  // Black-box review: the demo receiver settling three payments at once refused two of them
  // ("Nonce provided for the transaction is lower than the current nonce").
  it("sends an account's transactions in turn: parallel settlements all land", async () => {
    const signed = await Promise.all(
      [1n, 2n, 3n, 4n].map(async (value) => {
        const a = await authorization(chain, payer, payee, value);
        return { a, signature: await signAuthorization(chain, payer, a) };
      }),
    );
    const receipts = await Promise.all(
      signed.map(({ a, signature }) => submit(chain, a, signature)),
    );
    expect(receipts.map((receipt) => receipt.status)).toEqual([
      "success",
      "success",
      "success",
      "success",
    ]);
  });

  it("moves tokens with the (v, r, s) overload", async () => {
    const a = await authorization(chain, payer, payee, 7n);
    const { v, r, s } = parseSignature(await signAuthorization(chain, payer, a));
    const payeeBefore = await chain.balanceOf(payee.address);
    const hash = await chain.walletClient(chain.accounts.facilitator).writeContract({
      address: chain.token.address,
      abi: eip3009TokenAbi,
      functionName: "transferWithAuthorization",
      args: [...args(a), Number(v), r, s],
    });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await chain.balanceOf(payee.address)).toBe(payeeBefore + 7n);
    expect(await authorizationState(chain, a)).toBe(true);
  });

  it("refuses an expired authorization", async () => {
    const a = {
      ...(await authorization(chain, payer, payee, 1n)),
      validBefore: (await now(chain)) - 1n,
    };
    expect(await rejection(chain, a, await signAuthorization(chain, payer, a))).toBe(
      "FiatTokenV2_2: authorization expired",
    );
  });

  it("refuses an authorization that is not yet valid", async () => {
    const a = {
      ...(await authorization(chain, payer, payee, 1n)),
      validAfter: (await now(chain)) + 3600n,
    };
    expect(await rejection(chain, a, await signAuthorization(chain, payer, a))).toBe(
      "FiatTokenV2_2: authorization is not yet valid",
    );
  });

  it("refuses signatures over the wrong domain, by someone else, or tampered with", async () => {
    const a = await authorization(chain, payer, payee, 1n);
    const invalid = "FiatTokenV2_2: invalid signature";
    expect(
      await rejection(
        chain,
        a,
        await signAuthorization(chain, payer, a, { domain: { name: "USDC" } }),
      ),
    ).toBe(invalid);
    expect(
      await rejection(
        chain,
        a,
        await signAuthorization(chain, payer, a, { domain: { version: "1" } }),
      ),
    ).toBe(invalid);
    expect(
      await rejection(
        chain,
        a,
        await signAuthorization(chain, payer, a, { domain: { chainId: 84532 } }),
      ),
    ).toBe(invalid);
    expect(await rejection(chain, a, await signAuthorization(chain, payee, a))).toBe(invalid);
    const good = await signAuthorization(chain, payer, a);
    expect(await rejection(chain, { ...a, value: 2n }, good)).toBe(invalid);
    expect(await rejection(chain, a, good.slice(0, -2) as Hex)).toBe(invalid);
    expect(await authorizationState(chain, a)).toBe(false);
    expect(await rejection(chain, a, good)).toBe("(did not revert)");
  });

  it("refuses to move more than the balance", async () => {
    const a = await authorization(chain, payer, payee, (await chain.balanceOf(payer.address)) + 1n);
    expect(await rejection(chain, a, await signAuthorization(chain, payer, a))).toBe(
      "ERC20: transfer amount exceeds balance",
    );
  });

  it("lets only the payee submit receiveWithAuthorization", async () => {
    const a = await authorization(chain, payer, payee, 3n);
    const signature = await signAuthorization(chain, payer, a, {
      primaryType: "ReceiveWithAuthorization",
    });
    const call = {
      address: chain.token.address,
      abi: eip3009TokenAbi,
      functionName: "receiveWithAuthorization",
      args: [...args(a), signature],
    } as const;
    const byFacilitator = chain.publicClient.simulateContract({
      ...call,
      account: chain.accounts.facilitator.address,
    });
    expect(revertReason(await byFacilitator.catch((e: unknown) => e))).toBe(
      "FiatTokenV2_2: invalid receiver",
    );

    const payeeBefore = await chain.balanceOf(payee.address);
    const hash = await chain.walletClient(payee).writeContract(call);
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await chain.balanceOf(payee.address)).toBe(payeeBefore + 3n);
  });

  it("cancels an unused authorization so it can no longer be used", async () => {
    const a = await authorization(chain, payer, payee, 1n);
    const transferSignature = await signAuthorization(chain, payer, a);
    const cancelSignature = await privateKeyToAccount(payer.privateKey).signTypedData({
      domain: domainOf(chain),
      types,
      primaryType: "CancelAuthorization",
      message: { authorizer: payer.address, nonce: a.nonce },
    });
    const hash = await chain.walletClient(chain.accounts.facilitator).writeContract({
      address: chain.token.address,
      abi: eip3009TokenAbi,
      functionName: "cancelAuthorization",
      args: [payer.address, a.nonce, cancelSignature],
    });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await authorizationState(chain, a)).toBe(true);
    expect(await rejection(chain, a, transferSignature)).toBe(
      "FiatTokenV2_2: authorization is used or canceled",
    );
  });
});

describe("startLocalChain(BASE_SEPOLIA)", () => {
  let chain: LocalChain;
  beforeAll(async () => {
    chain = await startLocalChain({ ...BASE_SEPOLIA, payers: 1 });
  });
  afterAll(async () => {
    await chain?.stop();
  });

  it("puts USDC (name USDC, version 2) at Base Sepolia's address on chain 84532, and it pays", async () => {
    expect(await chain.publicClient.getChainId()).toBe(84532);
    expect(chain.token.address).toBe("0x036CbD53842c5426634e7929541eC2318f3dCF7e");
    expect(
      await chain.publicClient.readContract({
        address: chain.token.address,
        abi: eip3009TokenAbi,
        functionName: "name",
      }),
    ).toBe("USDC");
    const [payer] = chain.accounts.payers;
    if (!payer) throw new Error("no payer");
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000_000n);

    const a = await authorization(chain, payer, chain.accounts.payee, 10_000n);
    // Signed for Base Sepolia's real domain: must verify here because chain id and address match.
    const signature = await signAuthorization(chain, payer, a, {
      domain: {
        name: "USDC",
        version: "2",
        chainId: 84532,
        verifyingContract: BASE_SEPOLIA.token.address,
      },
    });
    expect(
      await rejection(
        chain,
        a,
        await signAuthorization(chain, payer, a, { domain: { chainId: 31337 } }),
      ),
    ).toBe("FiatTokenV2_2: invalid signature");
    expect((await submit(chain, a, signature)).status).toBe("success");
    expect(await chain.balanceOf(chain.accounts.payee.address)).toBe(10_000n);
    expect(await rejection(chain, a, signature)).toBe(
      "FiatTokenV2_2: authorization is used or canceled",
    );
  });
});
