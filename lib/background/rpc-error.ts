import { StipendexError } from "../errors";
import { ErrorCode, type WireError } from "../messages";

/** An error meant for the caller across the message boundary, with its EIP-1193-style number. */
export class RpcError extends StipendexError {
  override name = "RpcError";
  readonly rpcCode: ErrorCode;
  readonly data: unknown;

  constructor(rpcCode: ErrorCode, message: string, data?: unknown) {
    super(`rpc-${rpcCode}`, message);
    this.rpcCode = rpcCode;
    this.data = data;
  }
}

/** The wallet's own refusals, by their StipendexError code, as the page sees them. */
const CODE_BY_REASON: Record<string, ErrorCode> = {
  "user-declined": ErrorCode.UserRejected,
  "policy-refused": ErrorCode.BudgetExceeded,
  "budget-exhausted": ErrorCode.BudgetExceeded,
  "charge-not-allowed": ErrorCode.BudgetExceeded,
  "wallet-locked": ErrorCode.Locked,
  "no-wallet": ErrorCode.Unauthorized,
  "wrong-password": ErrorCode.Unauthorized,
  "unknown-payment": ErrorCode.InvalidParams,
  "invalid-policy": ErrorCode.InvalidParams,
  "stale-policy": ErrorCode.InvalidParams,
  "too-many-waiting": ErrorCode.TooManyPending,
  "invalid-auto-lock": ErrorCode.InvalidParams,
  "invalid-private-key": ErrorCode.InvalidParams,
};

/**
 * Anything else a payment request fails with is the price's fault (malformed,
 * unsigned, expired, replayed, unknown token, …): InvalidQuote, with its reason.
 */
export function asInvalidQuote(error: unknown): unknown {
  if (
    !(error instanceof StipendexError) ||
    error instanceof RpcError ||
    error.code in CODE_BY_REASON
  ) {
    return error;
  }
  return new RpcError(ErrorCode.InvalidQuote, error.message, { reason: error.code });
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
