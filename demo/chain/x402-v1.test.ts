import { type Hex, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settle, verify } from "x402/facilitator";
import type { PaymentPayload, PaymentRequirements } from "x402/types";
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from "../../lib/protocol/rails/eip3009";
import { BASE_SEPOLIA, type LocalChain, revertReason, startLocalChain } from "./index";

// The official x402 v1 facilitator only knows fixed networks; this is the reason BASE_SEPOLIA exists.
describe("official x402 v1 facilitator against startLocalChain(BASE_SEPOLIA)", () => {
  let chain: LocalChain;
  beforeAll(async () => {
    chain = await startLocalChain({ ...BASE_SEPOLIA, payers: 1 });
  });
  afterAll(async () => {
    await chain?.stop();
  });

  it("verifies and settles an exact payment, then refuses to settle it again", async () => {
    const [payer] = chain.accounts.payers;
    if (!payer) throw new Error("startLocalChain gave no payer");
    const payee = chain.accounts.payee.address;
    const now = BigInt(Math.floor(Date.now() / 1000));
    const authorization = {
      from: payer.address,
      to: payee,
      value: 10_000n,
      validAfter: now - 600n,
      validBefore: now + 300n,
      nonce: toHex(crypto.getRandomValues(new Uint8Array(32))) as Hex,
    };
    const signature = await privateKeyToAccount(payer.privateKey).signTypedData({
      domain: {
        name: "USDC",
        version: "2",
        chainId: 84532,
        verifyingContract: BASE_SEPOLIA.token.address,
      },
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: "TransferWithAuthorization",
      message: authorization,
    });
    const payload: PaymentPayload = {
      x402Version: 1,
      scheme: "exact",
      network: "base-sepolia",
      payload: {
        signature,
        authorization: {
          ...authorization,
          value: String(authorization.value),
          validAfter: String(authorization.validAfter),
          validBefore: String(authorization.validBefore),
        },
      },
    };
    const requirements: PaymentRequirements = {
      scheme: "exact",
      network: "base-sepolia",
      maxAmountRequired: "10000",
      resource: "http://127.0.0.1/paid",
      description: "local test",
      mimeType: "application/json",
      payTo: payee,
      maxTimeoutSeconds: 60,
      asset: BASE_SEPOLIA.token.address,
      extra: { name: "USDC", version: "2" },
    };

    expect(await verify(chain.publicClient, payload, requirements)).toMatchObject({
      isValid: true,
      payer: payer.address,
    });
    const facilitator = chain.walletClient(chain.accounts.facilitator);
    expect(await settle(facilitator, payload, requirements)).toMatchObject({ success: true });
    expect(await chain.balanceOf(payee)).toBe(10_000n);
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000_000n - 10_000n);

    const again = await settle(facilitator, payload, requirements).catch((error: unknown) => error);
    expect(revertReason(again)).toBe("FiatTokenV2_2: authorization is used or canceled");
  });
});
