export interface PendingLimit {
  /** Requests in flight at once per key (an origin). */
  perKey: number;
  /** Keys with requests in flight at once. */
  maxKeys: number;
}

/** Why a request got no slot. */
export type PendingRefusal = "key-full" | "too-many-keys";

/**
 * Counts requests in flight per key. A request id already in flight under
 * the same key joins it instead of taking a second slot: the relay sends a
 * request again when it lost the answer, and that is one request, not two,
 * so it is run once and every caller gets its answer.
 * Only keys with requests in flight are kept.
 */
export class PendingLimiter {
  /** key → request id → its run. */
  private readonly inFlight = new Map<string, Map<string, Promise<unknown>>>();

  constructor(readonly limit: PendingLimit) {}

  /** Why `id` could not start under `key` now, or undefined when it can (or joins). */
  refusal(key: string, id: string): PendingRefusal | undefined {
    const ids = this.inFlight.get(key);
    if (ids?.has(id)) return undefined;
    if (ids) return ids.size >= this.limit.perKey ? "key-full" : undefined;
    return this.inFlight.size >= this.limit.maxKeys ? "too-many-keys" : undefined;
  }

  /** True when `id` is in flight under `key` (a new caller would join it). */
  has(key: string, id: string): boolean {
    return this.inFlight.get(key)?.has(id) ?? false;
  }

  /**
   * Runs `task` holding `id`'s slot under `key`, or joins the run of `id` in
   * flight (whose task is the same request's); call only when `refusal` said yes.
   */
  run<T>(key: string, id: string, task: () => Promise<T>): Promise<T> {
    const ids = this.inFlight.get(key) ?? new Map<string, Promise<unknown>>();
    const running = ids.get(id);
    if (running) return running as Promise<T>;
    const run = (async () => {
      try {
        return await task();
      } finally {
        ids.delete(id);
        if (ids.size === 0) this.inFlight.delete(key);
      }
    })();
    ids.set(id, run);
    this.inFlight.set(key, ids);
    return run;
  }
}
