import { errorGuard, StipendexError } from "../errors";

/** Why a payment was not made. Each code is stable: the background maps some to wire errors. */
export type PaymentErrorCode =
  /**
   * The receiver's descriptor could not be fetched, read or used. One message
   * whatever went wrong, so that a page cannot map hosts by the wallet's
   * answers; `cause` (a "descriptor-fetch") says what happened, for the wallet itself.
   */
  | "descriptor-unavailable"
  /** Why a descriptor could not be used: the `cause` of a "descriptor-unavailable", never shown to a page. */
  | "descriptor-fetch"
  /** The 402 / -32402 / isError result carried no price the wallet can read. */
  | "unreadable-challenge"
  /** A Quote rail whose decimals differ from the token's real ones (the "10000 meant as 0.01" trap). */
  | "decimals-mismatch"
  /** A Quote's display total that does not state what a rail of a known-currency token pays. */
  | "total-disagrees-with-rail"
  /** A payment elicitation's `requestedSchema` that the wallet's answer could not satisfy. */
  | "elicitation-schema"
  /** The person (or the closed confirmation window) said no. */
  | "user-declined"
  /** The policy refused the payment before anyone was asked. */
  | "policy-refused"
  /** A payment or approval id the caller named does not exist, or is not theirs. */
  | "unknown-payment"
  /** A site already has as many requests waiting for the person as it may. */
  | "too-many-waiting"
  /** A site's requests ended refused or declined too often of late: its next is not recorded. */
  | "too-many-unpaid"
  /** A Receipt whose `resultHash` is not the hash of the result the page was served. */
  | "receipt-result-mismatch"
  /** An x402 settle response naming another payer than this wallet. */
  | "settlement-wrong-payer"
  /** An x402 settle response naming another network than the payment's. */
  | "settlement-wrong-network"
  /** An x402 settle response naming another amount than the payment's. */
  | "settlement-wrong-amount"
  /** The facilitator reported that an x402 payment did not settle. */
  | "settlement-failed"
  /** The wallet is locked and nobody unlocked it in time. */
  | "wallet-locked"
  /** There is no wallet yet: create or import one first. */
  | "no-wallet";

/** Every refusal of the payments layer: one class, told apart by `code`. */
export class PaymentError extends StipendexError {
  override name = "PaymentError";
  declare readonly code: PaymentErrorCode;
  /** The policy rule (or final payment state) that refused the payment ("policy-refused"). */
  readonly rule: string | undefined;

  constructor(
    code: PaymentErrorCode,
    message: string,
    options: { cause?: unknown; rule?: string } = {},
  ) {
    super(code, message, options);
    this.rule = options.rule;
  }
}

/** Whether `error` is a PaymentError, with one of `codes` when any are given. */
export const isPaymentError = errorGuard(PaymentError);

/** The wallet is locked, and nobody unlocked it in time. */
export function walletLocked(): PaymentError {
  return new PaymentError("wallet-locked", "The wallet is locked");
}

/** There is no wallet to pay from yet. */
export function noWallet(): PaymentError {
  return new PaymentError("no-wallet", "No wallet yet: create or import one in the wallet's popup");
}

/** A payment or approval `id` this page may not use. */
export function unknownPayment(id: string): PaymentError {
  return new PaymentError("unknown-payment", `No payment ${JSON.stringify(id)} for this page`);
}
