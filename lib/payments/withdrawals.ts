import { RecentKeys } from "../recent-keys";

/**
 * The requests their callers withdrew, by requestKey. A withdrawal of a
 * request still being paid or elicited is kept until that work is done,
 * whatever other callers withdraw meanwhile (a page flooding withdrawals
 * cannot push it out); one that came before its request is kept among the
 * last `recentKept`.
 */
export class Withdrawals {
  /** Requests being worked on: how many calls hold each, and whether it was withdrawn. */
  private readonly inFlight = new Map<string, { calls: number; withdrawn: boolean }>();
  private readonly recent: RecentKeys;

  constructor(recentKept: number) {
    this.recent = new RecentKeys(recentKept);
  }

  /** Runs `work` with `requestKey` held in flight (nothing held when undefined). */
  async during<T>(requestKey: string | undefined, work: () => Promise<T>): Promise<T> {
    if (requestKey === undefined) return work();
    const held = this.inFlight.get(requestKey) ?? { calls: 0, withdrawn: false };
    held.calls += 1;
    this.inFlight.set(requestKey, held);
    try {
      return await work();
    } finally {
      held.calls -= 1;
      if (held.calls === 0) {
        this.inFlight.delete(requestKey);
        // Asked again later (a relay retrying after losing the answer): still withdrawn.
        if (held.withdrawn) this.recent.add(requestKey);
      }
    }
  }

  add(requestKey: string): void {
    const held = this.inFlight.get(requestKey);
    if (held) held.withdrawn = true;
    else this.recent.add(requestKey);
  }

  has(requestKey: string): boolean {
    return this.inFlight.get(requestKey)?.withdrawn === true || this.recent.has(requestKey);
  }

  /** Whether a call for `requestKey` is being worked on now. */
  working(requestKey: string): boolean {
    return this.inFlight.has(requestKey);
  }
}
