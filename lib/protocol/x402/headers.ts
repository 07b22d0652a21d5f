/** x402 HTTP header names, as the official packages write them (HTTP reads them in any case). */
export const X402_HEADERS = {
  paymentRequired: "PAYMENT-REQUIRED",
  paymentSignature: "PAYMENT-SIGNATURE",
  paymentResponse: "PAYMENT-RESPONSE",
  xPayment: "X-PAYMENT",
  xPaymentResponse: "X-PAYMENT-RESPONSE",
} as const;

/** Anything with a case-insensitive `get`, such as fetch's Headers. */
export interface HeaderReader {
  get(name: string): string | null;
}
