export interface PendingLimit {
  /** Requests in flight at once per key (an origin). */
  perKey: number;
  /** Keys with requests in flight at once. */
  maxKeys: number;
  /** Keys one group (a tab) may have requests in flight for at once: the others keep room. */
  keysPerGroup: number;
}

/** Why a request got no slot. */
export type PendingRefusal = "key-full" | "group-full" | "too-many-keys";

/** A request in flight: its run, and the group it came from, if any. */
interface Running {
  run: Promise<unknown>;
  group: string | undefined;
}

/**
 * Counts requests in flight per key. A request id already in flight under
 * the same key joins it instead of taking a second slot: the relay sends a
 * request again when it lost the answer, and that is one request, not two,
 * so it is run once and every caller gets its answer.
 * Only keys with requests in flight are kept.
 */
export class PendingLimiter {
  /** key → request id → its run. */
  private readonly inFlight = new Map<string, Map<string, Running>>();

  constructor(readonly limit: PendingLimit) {}

  /** Why `id` could not start under `key` from `group` now, or undefined when it can (or joins). */
  refusal(key: string, id: string, group?: string): PendingRefusal | undefined {
    const ids = this.inFlight.get(key);
    if (ids?.has(id)) return undefined;
    if (ids && ids.size >= this.limit.perKey) return "key-full";
    if (group !== undefined) {
      const keys = this.keysOf(group);
      if (!keys.has(key) && keys.size >= this.limit.keysPerGroup) return "group-full";
    }
    if (ids) return undefined;
    return this.inFlight.size >= this.limit.maxKeys ? "too-many-keys" : undefined;
  }

  /** The keys `group` has requests in flight for. */
  private keysOf(group: string): Set<string> {
    const keys = new Set<string>();
    for (const [key, ids] of this.inFlight) {
      for (const running of ids.values()) if (running.group === group) keys.add(key);
    }
    return keys;
  }

  /** True when `id` is in flight under `key` (a new caller would join it). */
  has(key: string, id: string): boolean {
    return this.inFlight.get(key)?.has(id) ?? false;
  }

  /**
   * Runs `task` holding `id`'s slot under `key` for `group`, or joins the run of
   * `id` in flight (whose task is the same request's); call only when `refusal` said yes.
   */
  run<T>(key: string, id: string, task: () => Promise<T>, group?: string): Promise<T> {
    const ids = this.inFlight.get(key) ?? new Map<string, Running>();
    const running = ids.get(id);
    if (running) return running.run as Promise<T>;
    const run = (async () => {
      try {
        return await task();
      } finally {
        ids.delete(id);
        if (ids.size === 0) this.inFlight.delete(key);
      }
    })();
    ids.set(id, { run, group });
    this.inFlight.set(key, ids);
    return run;
  }
}
