import { type Hex, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA, type LocalChain, startLocalChain } from "../../demo/chain";
import { settleAuthorization } from "../../demo/receiver/settle";
import { usdcOption } from "../../tests/unit-support/payments/offers";
import { signTransferWithAuthorization } from "../protocol/rails/eip3009";
import { authorizationUsed, checkSettlement, type SignedTransfer } from "./settlement-check";

describe("authorizationUsed and checkSettlement, against a local chain", () => {
  let chain: LocalChain;
  beforeAll(async () => {
    chain = await startLocalChain({ ...BASE_SEPOLIA, payers: 1 });
  }, 60_000);
  afterAll(() => chain?.stop());

  async function signed(value: bigint) {
    const payer = chain.accounts.payers[0];
    if (!payer) throw new Error("no funded payer");
    const option = usdcOption({
      asset: chain.token.address,
      payTo: chain.accounts.payee.address,
      amount: value,
    });
    const payment = await signTransferWithAuthorization(
      privateKeyToAccount(payer.privateKey),
      option,
      { now: Math.floor(Date.now() / 1000) },
    );
    const transfer: SignedTransfer = {
      token: chain.token.address,
      from: payer.address,
      to: chain.accounts.payee.address,
      value,
      nonce: payment.authorization.nonce as Hex,
    };
    return { payment, transfer };
  }

  it("sees a nonce unused until the transfer settles, and the settlement as this payment", async () => {
    const { payment, transfer } = await signed(2_500n);
    expect(await authorizationUsed(chain.rpcUrl, transfer)).toBe(false);
    const facilitator = chain.walletClient(chain.accounts.facilitator).extend(publicActions);
    const { transaction } = await settleAuthorization(facilitator, chain.token.address, payment);
    expect(await authorizationUsed(chain.rpcUrl, transfer)).toBe(true);
    expect(await checkSettlement(chain.rpcUrl, transaction, transfer)).toMatchObject({
      kind: "confirmed",
    });
    // The same transaction is not another payment's, nor this one for another amount or payee.
    const other = await signed(2_500n);
    expect(await checkSettlement(chain.rpcUrl, transaction, other.transfer)).toMatchObject({
      kind: "mismatch",
      reason: expect.stringContaining("did not use this payment's authorization"),
    });
    expect(
      await checkSettlement(chain.rpcUrl, transaction, { ...transfer, value: 2_501n }),
    ).toMatchObject({ kind: "mismatch", reason: expect.stringContaining("did not move 2501") });
  });

  it("reports a transaction the chain does not know, rather than trusting the claim", async () => {
    const { transfer } = await signed(1n);
    const made: Hex = `0x${"ab".repeat(32)}`;
    expect(await checkSettlement(chain.rpcUrl, made, transfer)).toEqual({
      kind: "unknown",
      reason: `No transaction ${made} on this chain`,
    });
  });
});
