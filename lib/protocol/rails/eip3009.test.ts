import { type Hex, verifyTypedData } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { PaymentOption } from "../offer";
import { signTransferWithAuthorization, TRANSFER_WITH_AUTHORIZATION_TYPES } from "./eip3009";

// Anvil's first well-known dev key: a test key, never money.
const account = privateKeyToAccount(
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
);
const NOW = 1_760_000_000;

const option: PaymentOption = {
  scheme: "exact",
  network: "eip155:84532",
  chainId: 84532,
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  amount: 10000n,
  decimals: 6,
  symbol: "USDC",
  payTo: "0x209693bc6afc0c5328ba36faf03c514ef312287c",
  maxTimeoutSeconds: 60,
  eip712: { name: "USDC", version: "2" },
  raw: {},
};

function verify(payload: Awaited<ReturnType<typeof signTransferWithAuthorization>>, o = option) {
  const a = payload.authorization;
  return verifyTypedData({
    address: account.address,
    domain: {
      name: o.eip712.name,
      version: o.eip712.version,
      chainId: o.chainId,
      verifyingContract: o.asset,
    },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message: {
      from: a.from,
      to: a.to,
      value: BigInt(a.value),
      validAfter: BigInt(a.validAfter),
      validBefore: BigInt(a.validBefore),
      nonce: a.nonce,
    },
    signature: payload.signature,
  });
}

describe("signTransferWithAuthorization", () => {
  it("signs the x402 exact payload that recovers to the signer", async () => {
    const payload = await signTransferWithAuthorization(account, option, { now: NOW });
    expect(payload.authorization).toMatchObject({
      from: account.address,
      to: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
      value: "10000",
      validAfter: String(NOW - 600),
      validBefore: String(NOW + 60),
    });
    expect(payload.authorization.nonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(payload.signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(await verify(payload)).toBe(true);
  });

  it("binds the EIP-712 domain: another name does not verify", async () => {
    const payload = await signTransferWithAuthorization(account, option, { now: NOW });
    expect(await verify(payload, { ...option, eip712: { name: "USD Coin", version: "2" } })).toBe(
      false,
    );
    expect(await verify(payload, { ...option, chainId: 8453 })).toBe(false);
  });

  it("draws a fresh random nonce each time and honours a given one", async () => {
    const a = await signTransferWithAuthorization(account, option, { now: NOW });
    const b = await signTransferWithAuthorization(account, option, { now: NOW });
    expect(a.authorization.nonce).not.toBe(b.authorization.nonce);
    const nonce: Hex = `0x${"ab".repeat(32)}`;
    const c = await signTransferWithAuthorization(account, option, { now: NOW, nonce });
    expect(c.authorization.nonce).toBe(nonce);
    expect(await verify(c)).toBe(true);
  });

  it.each([
    [{ chainId: 8453 }, {}, "wrong-chain-id"],
    [{ network: "eip155:424242" as const }, {}, "unknown-network"],
    [{ maxTimeoutSeconds: 0 }, {}, "invalid-timeout"],
    [{ maxTimeoutSeconds: 6 }, {}, "invalid-timeout"],
    [{ maxTimeoutSeconds: 1.5 }, {}, "invalid-timeout"],
    [{ maxTimeoutSeconds: 10 ** 9 }, {}, "invalid-timeout"],
    [{ amount: 0n }, {}, "zero-amount"],
    [{ amount: -1n }, {}, "negative-amount"],
    [{ amount: 10n ** 16n }, {}, "absurd-amount"],
    [{}, { nonce: "0x1234" as Hex }, "invalid-nonce"],
    [{}, { nonce: `0x${"zz".repeat(32)}` as Hex }, "invalid-nonce"],
  ])("refuses bad input %# and signs nothing", async (change, extra, code) => {
    await expect(
      signTransferWithAuthorization(account, { ...option, ...change }, { now: NOW, ...extra }),
    ).rejects.toMatchObject({ code });
  });
});
