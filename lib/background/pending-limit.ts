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
 * request again when it lost the answer, and that is one request, not two.
 * Only keys with requests in flight are kept.
 */
export class PendingLimiter {
  /** key → request id → how many callers wait on it. */
  private readonly inFlight = new Map<string, Map<string, number>>();

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

  /** Runs `task` holding `id`'s slot under `key`; call only when `refusal` said yes. */
  async run<T>(key: string, id: string, task: () => Promise<T>): Promise<T> {
    const ids = this.inFlight.get(key) ?? new Map<string, number>();
    ids.set(id, (ids.get(id) ?? 0) + 1);
    this.inFlight.set(key, ids);
    try {
      return await task();
    } finally {
      const left = (ids.get(id) ?? 1) - 1;
      if (left > 0) ids.set(id, left);
      else ids.delete(id);
      if (ids.size === 0) this.inFlight.delete(key);
    }
  }
}
