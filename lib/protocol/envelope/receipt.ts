import { ProtocolError } from "../errors";
import { type ReceiptClaims, receiptClaimsSchema } from "./claims";
import { readCompactOrBase64url } from "./compact";
import type { Descriptor } from "./descriptor";
import { signEnvelope, type Verified } from "./envelope-jwt";
import { readJsonForm } from "./json-form";
import { parseClaims } from "./parse-claims";
import { type ReceiverKey, verifyReceiverEnvelope } from "./receiver-key";

/** Counted from `now`: when the Receipt arrived (one held until unlock too), or a history re-check's own time. */
const RECEIPT_MAX_AGE_SECONDS = 86_400;
/**
 * How far a Receipt's times may be off the wallet's clock. Wider than the 5 s
 * a Quote gets: a Receipt answers the one Proof it names by hash, so its time
 * decides nothing, and a receiver whose clock runs ahead has still been paid.
 */
export const RECEIPT_CLOCK_TOLERANCE_SECONDS = 300;

export type ReceiptInput = Omit<ReceiptClaims, "stipendex">;
export type VerifiedReceipt = Verified<ReceiptClaims>;

/** Signs a Receipt with a receiver key. */
export async function signReceipt(claims: ReceiptInput, receiverKey: ReceiverKey): Promise<string> {
  const checked = parseClaims(
    receiptClaimsSchema,
    { ...claims, stipendex: "receipt/0.1" },
    "Receipt",
  );
  return signEnvelope(
    "receipt",
    checked,
    { alg: receiverKey.alg, kid: receiverKey.kid },
    receiverKey.key,
  );
}

/**
 * The Receipt's compact JWS in what a paid retry brought back: the
 * `Stipendex-Receipt` header value, or the MCP `_meta` JSON form. Either may
 * carry it base64url-wrapped (the seed's `base64url(Receipt JWS)`); it is
 * unwrapped here and then verified like any other, nothing relaxed.
 */
export function readReceiptValue(value: unknown): string {
  return typeof value === "string"
    ? readCompactOrBase64url(value)
    : readJsonForm(value, "receipt", readCompactOrBase64url);
}

/** What was paid, to compare with the Receipt's settlement. */
export interface ExpectedSettlement {
  network: string;
  asset: string;
  amount: string;
  payer: string;
}

export interface VerifyReceiptOptions {
  descriptor: Descriptor;
  /** Hash of the Quote paid: `qh` must be it. */
  quoteHash: string;
  /** Hash of the Proof sent: `ph` must be it. */
  proofHash: string;
  /** The paying wallet's id: `sub` must be it. */
  walletId?: string;
  settlement?: ExpectedSettlement;
  /** When the Receipt is judged: when it arrived, not when a held one is looked at. */
  now?: Date;
  clockToleranceSeconds?: number;
  maxAgeSeconds?: number;
}

function assertSettlement(claims: ReceiptClaims, expected: ExpectedSettlement): void {
  const actual = claims.settlement;
  // An accepted Receipt that claims no settlement yet has nothing to compare; the chain will say.
  if (actual === undefined) return;
  const same =
    actual.network === expected.network &&
    actual.asset.toLowerCase() === expected.asset.toLowerCase() &&
    actual.amount === expected.amount &&
    actual.payer.toLowerCase() === expected.payer.toLowerCase();
  if (!same) {
    throw new ProtocolError(
      "settlement-mismatch",
      `Receipt settlement ${JSON.stringify(actual)} is not the payment made ${JSON.stringify(expected)}`,
    );
  }
}

/**
 * Verifies a Receipt under the descriptor key named by kid, iss = descriptor id,
 * and that it answers exactly the Quote and Proof sent. A caller keeps a
 * refused Receipt as a failed one instead of dropping it (§6).
 */
export async function verifyReceipt(
  jws: unknown,
  options: VerifyReceiptOptions,
): Promise<VerifiedReceipt> {
  const verified = await verifyReceiverEnvelope(jws, options.descriptor, {
    type: "receipt",
    schema: receiptClaimsSchema,
    subject: options.walletId,
    maxTokenAgeSeconds: options.maxAgeSeconds ?? RECEIPT_MAX_AGE_SECONDS,
    now: options.now,
    clockToleranceSeconds: options.clockToleranceSeconds ?? RECEIPT_CLOCK_TOLERANCE_SECONDS,
  });
  const { qh, ph } = verified.claims;
  if (qh !== options.quoteHash) {
    throw new ProtocolError(
      "quote-hash-mismatch",
      `Receipt qh ${qh} is not the hash of the Quote paid (${options.quoteHash})`,
    );
  }
  if (ph !== options.proofHash) {
    throw new ProtocolError(
      "proof-hash-mismatch",
      `Receipt ph ${ph} is not the hash of the Proof sent (${options.proofHash})`,
    );
  }
  if (options.settlement !== undefined) assertSettlement(verified.claims, options.settlement);
  return verified;
}
