import { describe, expect, it } from "vitest";
import {
  makeReceiver,
  makeWallet,
  NOW,
  ORIGIN,
  RAIL,
  T,
} from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import { StipendexError } from "../../errors";
import type { ProtocolErrorCode } from "../errors";
import { signEnvelope } from "./envelope-jwt";
import { type ReceiptInput, signReceipt, verifyReceipt } from "./receipt";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

const QH = "q".repeat(43);
const PH = "p".repeat(43);
const PAYER = "0x1111111111111111111111111111111111111111";

/** A settled Receipt's claims: its settlement named in full. */
function receiptInput(
  sub: string,
): ReceiptInput & { settlement: NonNullable<ReceiptInput["settlement"]> } {
  return {
    iss: ORIGIN,
    sub,
    jti: "r-1",
    iat: T,
    qh: QH,
    ph: PH,
    status: "settled",
    settlement: {
      network: RAIL.network,
      transaction: `0x${"ab".repeat(32)}`,
      amount: "5000",
      asset: RAIL.asset,
      payer: PAYER,
    },
    resultHash: "h".repeat(43),
  };
}

describe("Receipt", () => {
  it("round-trips and checks qh, ph, sub and settlement", async () => {
    const receiver = await makeReceiver();
    const wallet = await makeWallet("EdDSA");
    const jws = await signReceipt(receiptInput(wallet.id), receiver.key);
    const options = {
      descriptor: receiver.descriptor,
      quoteHash: QH,
      proofHash: PH,
      walletId: wallet.id,
      now: NOW,
    };
    const settlement = {
      network: RAIL.network,
      asset: RAIL.asset.toLowerCase(),
      amount: "5000",
      payer: PAYER,
    };
    const receipt = await verifyReceipt(jws, { ...options, settlement });
    expect(receipt.claims).toMatchObject({
      stipendex: "receipt/0.1",
      status: "settled",
      sub: wallet.id,
    });
    expect(receipt.header.typ).toBe("stipendex-receipt+jwt");
    await expect(verifyReceipt(jws, { ...options, quoteHash: PH })).rejects.toThrow(
      refused("quote-hash-mismatch"),
    );
    await expect(verifyReceipt(jws, { ...options, proofHash: QH })).rejects.toThrow(
      refused("proof-hash-mismatch"),
    );
    const other = await makeWallet("ES256");
    await expect(verifyReceipt(jws, { ...options, walletId: other.id })).rejects.toThrow(
      refused("subject-mismatch"),
    );
    await expect(
      verifyReceipt(jws, { ...options, settlement: { ...settlement, amount: "5001" } }),
    ).rejects.toThrow(refused("settlement-mismatch"));
  });

  it("fails when any character of the token is changed", async () => {
    const receiver = await makeReceiver();
    const wallet = await makeWallet("ES256");
    const jws = await signReceipt(receiptInput(wallet.id), receiver.key);
    const options = { descriptor: receiver.descriptor, quoteHash: QH, proofHash: PH, now: NOW };
    for (let i = 0; i < jws.length; i++) {
      const tampered = jws.slice(0, i) + (jws[i] === "A" ? "B" : "A") + jws.slice(i + 1);
      await expect(verifyReceipt(tampered, options), `at ${i}`).rejects.toBeInstanceOf(
        StipendexError,
      );
    }
  });

  it("lets an accepted Receipt omit the transaction, not a settled one", async () => {
    const receiver = await makeReceiver();
    const wallet = await makeWallet("EdDSA");
    const pending = receiptInput(wallet.id);
    pending.settlement.transaction = "";
    await expect(signReceipt(pending, receiver.key)).rejects.toThrow(refused("invalid-claims"));
    const jws = await signReceipt({ ...pending, status: "accepted" }, receiver.key);
    const options = { descriptor: receiver.descriptor, quoteHash: QH, proofHash: PH, now: NOW };
    await expect(verifyReceipt(jws, options)).resolves.toMatchObject({
      claims: { status: "accepted" },
    });
  });

  // §2 lists `transaction`; a receiver whose settlement is pending may have none to give.
  it.each([
    ["leaves it out", undefined],
    ["says null", null],
  ])(
    "reads an accepted Receipt whose settlement %s as naming no transaction yet",
    async (_how, transaction) => {
      const receiver = await makeReceiver();
      const wallet = await makeWallet("EdDSA");
      const { settlement, ...claims } = receiptInput(wallet.id);
      const { transaction: _named, ...rest } = settlement;
      const pending = { ...rest, ...(transaction === null ? { transaction } : {}) };
      const jws = await signEnvelope(
        "receipt",
        { ...claims, status: "accepted", settlement: pending },
        { alg: receiver.key.alg, kid: receiver.key.kid },
        receiver.key.key,
      );
      const options = { descriptor: receiver.descriptor, quoteHash: QH, proofHash: PH, now: NOW };
      await expect(verifyReceipt(jws, options)).resolves.toMatchObject({
        claims: { status: "accepted", settlement: { transaction: "" } },
      });
      const settled = await signEnvelope(
        "receipt",
        { ...claims, settlement: pending },
        { alg: receiver.key.alg, kid: receiver.key.kid },
        receiver.key.key,
      );
      await expect(verifyReceipt(settled, options)).rejects.toThrow(refused("invalid-claims"));
    },
  );

  // §7: an accepted Receipt is kept as unconfirmed until the wallet sees the settlement; a
  // receiver whose settlement has not started may name none (black-box settlement review).
  it("takes an accepted Receipt that names no settlement yet, not a settled one", async () => {
    const receiver = await makeReceiver();
    const wallet = await makeWallet("EdDSA");
    const { settlement, ...claims } = receiptInput(wallet.id);
    const sign = (status: "accepted" | "settled") =>
      signEnvelope(
        "receipt",
        { ...claims, status },
        { alg: receiver.key.alg, kid: receiver.key.kid },
        receiver.key.key,
      );
    const options = {
      descriptor: receiver.descriptor,
      quoteHash: QH,
      proofHash: PH,
      now: NOW,
      settlement,
    };
    const accepted = await verifyReceipt(await sign("accepted"), options);
    expect(accepted.claims.status).toBe("accepted");
    expect(accepted.claims.settlement).toBeUndefined();
    await expect(verifyReceipt(await sign("settled"), options)).rejects.toThrow(
      refused("invalid-claims"),
    );
  });

  it("takes a Receipt from a receiver whose clock runs minutes ahead, not one from far ahead", async () => {
    const receiver = await makeReceiver();
    const wallet = await makeWallet("EdDSA");
    const options = { descriptor: receiver.descriptor, quoteHash: QH, proofHash: PH, now: NOW };
    const ahead = (seconds: number) =>
      signReceipt({ ...receiptInput(wallet.id), iat: T + seconds }, receiver.key);
    await expect(verifyReceipt(await ahead(120), options)).resolves.toMatchObject({
      claims: { status: "settled" },
    });
    await expect(verifyReceipt(await ahead(3_600), options)).rejects.toThrow(
      expect.objectContaining({ name: "ProtocolError" }),
    );
  });

  it("refuses a Receipt from another issuer or key", async () => {
    const receiver = await makeReceiver();
    const stranger = await makeReceiver(ORIGIN, "r2");
    const wallet = await makeWallet("EdDSA");
    const options = { descriptor: receiver.descriptor, quoteHash: QH, proofHash: PH, now: NOW };
    const foreignIss = await signEnvelope(
      "receipt",
      { ...receiptInput(wallet.id), iss: "https://evil.example" },
      receiver.key,
      receiver.key.key,
    );
    await expect(verifyReceipt(foreignIss, options)).rejects.toThrow(refused("issuer-mismatch"));
    await expect(
      verifyReceipt(await signReceipt(receiptInput(wallet.id), stranger.key), options),
    ).rejects.toThrow(refused("key-not-in-descriptor"));
  });
});
