import type { PaymentState } from "../payment-states";
import type { PaymentRecord } from "./schema";

/**
 * `checkAt` of a payment whose receipt came while the wallet was locked: it
 * waits for unlock (lib/payments/receipts.ts), not for a time.
 */
export const AWAITS_UNLOCK = -1;

/** States whose charge stands until the chain says whether it was collected. */
export const UNSETTLED: ReadonlySet<PaymentState> = new Set(["signed", "failed", "settled"]);

/**
 * Whether the settlement tracker still has something to ask the chain about
 * this payment: it was charged and signed, and no transaction that collected
 * it has been found yet.
 */
export function awaitsSettlement(payment: PaymentRecord): boolean {
  const found = payment.settlement?.status;
  return (
    UNSETTLED.has(payment.state) &&
    payment.charge !== undefined &&
    found !== "confirmed" &&
    found !== "used"
  );
}

/**
 * Until when (epoch ms) an approval charged ahead of its payment (an
 * elicitation's Confirmation) holds its charge unused: its Quote's expiry, after
 * which no payment can use it. Undefined for anything else.
 */
export function reservedUntil(payment: PaymentRecord): number | undefined {
  const { state, charge, offer } = payment;
  if (state !== "approved" || charge === undefined || offer.quote === undefined) return undefined;
  return offer.quote.expiresAt * 1000;
}

/**
 * The payment as stored after a move: due for the settlement tracker at `at`
 * if the chain still has something to say about it, when its Quote expires if
 * it holds a charge no payment has used yet, else out of its index.
 */
export function withSettlementCheck(payment: PaymentRecord, at: number): PaymentRecord {
  const { checkAt: _previous, ...rest } = payment;
  const reserved = reservedUntil(payment);
  if (reserved !== undefined) return { ...rest, checkAt: Math.max(at, reserved) };
  return awaitsSettlement(payment) ? { ...rest, checkAt: at } : rest;
}
