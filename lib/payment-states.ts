/** Where a payment is in its life; the moves between them are in lib/wallet/payment-state.ts. */
export const PAYMENT_STATES = [
  "quoted",
  "approved",
  "declined",
  "refused",
  "signed",
  "settled",
  "failed",
  "expired",
] as const;

export type PaymentState = (typeof PAYMENT_STATES)[number];
