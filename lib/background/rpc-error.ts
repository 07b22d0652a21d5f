import { StipendexError } from "../errors";
import { ErrorCode, type WireError } from "../messages";
import type { PaymentErrorCode } from "../payments/errors";
import { ProtocolError } from "../protocol/errors";
import type { WalletErrorCode } from "../wallet/errors";

/** The background's own refusals that a wallet page tells apart, by `data.reason` on the wire. */
export type BackgroundReason =
  /** A policy the settings page sent that the wallet will not store. */
  | "invalid-policy"
  /** A save from a page that read the settings before another change was made. */
  | "stale-policy"
  /** A long read the same page asked for again: the newer one answers (latest-reads.ts). */
  | "superseded"
  /** A paywalled page's price is not the one the person was shown (page-offers.ts): nothing paid. */
  | "page-price-changed";

/** An RpcError's code: its reason when it has one, else its wire number. */
export type RpcErrorCode = BackgroundReason | `rpc-${ErrorCode}`;

/**
 * The background layer's one error: meant for the caller across the message
 * boundary, with its EIP-1193-style number. A `reason` is also its code, and
 * goes on the wire as `data.reason` like the other layers' codes; else `data`
 * goes as given.
 */
export class RpcError extends StipendexError {
  override name = "RpcError";
  declare readonly code: RpcErrorCode;
  readonly rpcCode: ErrorCode;
  readonly data: unknown;

  constructor(
    rpcCode: ErrorCode,
    message: string,
    detail: { reason: BackgroundReason } | { data?: unknown } = {},
  ) {
    super(("reason" in detail ? detail.reason : `rpc-${rpcCode}`) satisfies RpcErrorCode, message);
    this.rpcCode = rpcCode;
    this.data = "reason" in detail ? { reason: detail.reason } : detail.data;
  }
}

/** The other layers' refusals, by their code, as the page sees them. */
const CODE_BY_REASON: Readonly<Record<string, ErrorCode>> = {
  "user-declined": ErrorCode.UserRejected,
  "policy-refused": ErrorCode.BudgetExceeded,
  "budget-exhausted": ErrorCode.BudgetExceeded,
  "charge-not-allowed": ErrorCode.BudgetExceeded,
  "wallet-locked": ErrorCode.Locked,
  "no-wallet": ErrorCode.Unauthorized,
  "wrong-password": ErrorCode.Unauthorized,
  "unknown-payment": ErrorCode.InvalidParams,
  "too-many-waiting": ErrorCode.TooManyPending,
  "too-many-unpaid": ErrorCode.RateLimited,
  "invalid-auto-lock": ErrorCode.InvalidParams,
  "invalid-private-key": ErrorCode.InvalidParams,
} satisfies Partial<Record<PaymentErrorCode | WalletErrorCode, ErrorCode>>;

/** Refusals outside the protocol layer that are still the price's fault. */
const PRICE_FAULTS: ReadonlySet<string> = new Set([
  "unreadable-challenge",
  "descriptor-unavailable",
  "decimals-mismatch",
  "total-disagrees-with-rail",
  "elicitation-schema",
  "duplicate-quote",
  "quote-already-paid",
] satisfies (PaymentErrorCode | WalletErrorCode)[]);

/**
 * What a payment request fails with because of the price (malformed,
 * unsigned, expired, replayed, unknown token, …): InvalidQuote, with its
 * reason. The wallet's own failures (a ledger or vault problem) stay what
 * they are: Internal on the wire, not blamed on the receiver.
 */
export function asInvalidQuote(error: unknown): unknown {
  const priceFault =
    error instanceof ProtocolError ||
    (error instanceof StipendexError && PRICE_FAULTS.has(error.code));
  if (!priceFault) return error;
  return new RpcError(ErrorCode.InvalidQuote, error.message, { data: { reason: error.code } });
}

/** Turns anything thrown by a handler into a wire error; unexpected errors keep only their message. */
export function toWireError(error: unknown): WireError {
  if (error instanceof RpcError) {
    return error.data === undefined
      ? { code: error.rpcCode, message: error.message }
      : { code: error.rpcCode, message: error.message, data: error.data };
  }
  if (error instanceof StipendexError) {
    return {
      code: CODE_BY_REASON[error.code] ?? ErrorCode.Internal,
      message: error.message,
      data: { reason: error.code },
    };
  }
  return {
    code: ErrorCode.Internal,
    message: error instanceof Error ? error.message : "Internal error",
  };
}

/** InvalidParams naming the first field a params schema refused, and why. */
export function invalidParams(
  method: string,
  issue: { path: readonly PropertyKey[]; message: string } | undefined,
): RpcError {
  const field = issue?.path.map(String).join(".") || "params";
  return new RpcError(
    ErrorCode.InvalidParams,
    `Invalid ${method} params: ${field}: ${issue?.message ?? "invalid"}`,
  );
}
