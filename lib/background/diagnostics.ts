import { transactionCount } from "../db/transaction-count";
import type { Diagnostics } from "../messages";

/** Where requests for methods the wallet has not are counted: a page may name any, of any length. */
export const UNKNOWN_METHOD = "(unknown method)";

const requests: Record<string, number> = {};

/** One request the background answered (counted by method, whether it succeeded or not). */
export function countRequest(method: string): void {
  requests[method] = (requests[method] ?? 0) + 1;
}

/** What this worker has done since it started, in numbers only (no origin, no amount). */
export function diagnostics(): Diagnostics {
  return { requests: { ...requests }, transactions: { ...transactionCount } };
}
