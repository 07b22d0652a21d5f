import { transactionCount } from "../db/transaction-count";
import type { Diagnostics } from "../messages";

/** Where requests for methods the wallet has not are counted: a page may name any, of any length. */
export const UNKNOWN_METHOD = "(unknown method)";

/** How many handling times are kept per method: the latest, enough for a bench's timed run. */
export const HANDLING_TIMES_KEPT = 1_000;

const requests: Record<string, number> = {};
const handlingMs: Record<string, number[]> = {};

/** One request the background answered (counted by method, whether it succeeded or not). */
export function countRequest(method: string): void {
  requests[method] = (requests[method] ?? 0) + 1;
}

/**
 * How long the background took over one request of `method`, from its message
 * to its answer (not the ports either side): the latest HANDLING_TIMES_KEPT kept.
 */
export function noteHandlingTime(method: string, ms: number): void {
  const times = handlingMs[method] ?? [];
  handlingMs[method] = times;
  times.push(ms);
  if (times.length > HANDLING_TIMES_KEPT) times.shift();
}

/** What this worker has done since it started, in numbers only (no origin, no amount). */
export function diagnostics(): Diagnostics {
  return {
    requests: { ...requests },
    transactions: { ...transactionCount },
    handlingMs: Object.fromEntries(
      Object.entries(handlingMs).map(([method, times]) => [method, [...times]]),
    ),
  };
}
