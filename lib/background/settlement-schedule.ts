/** How long after a receipt the settlements are looked at (later receipts push it back). */
const SOON_MS = 1_000;
/** However many receipts keep coming, a pass no later than this after the first of them. */
const SOON_AT_MOST_MS = 10_000;
/** When a pass failed (a node down, the database closing), the next try: the alarm's own floor. */
export const RETRY_FAILED_PASS_MS = 60_000;

/**
 * Runs the settlement tracker one pass at a time (a request for a pass while
 * one runs gets one more pass after it), then arms the alarm for the next.
 */
export class SettlementSchedule {
  private running: Promise<void> | undefined;
  private again = false;
  private soonTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the pass the pending timer is for was first asked for. */
  private soonSince: number | undefined;
  /** When the alarm this worker last armed fires (undefined: none, or not armed since it started). */
  private armedAt: number | undefined;
  /** The earliest look asked for (lookBy) while a pass ran: the alarm armed after it fires by then. */
  private lookByAfterPass: number | undefined;

  constructor(
    private readonly deps: {
      /** One pass; resolves with when to look again, if ever. */
      track(): Promise<number | undefined>;
      /** Arms (or, with undefined, disarms) the alarm of the next pass. */
      schedule(at: number | undefined): Promise<void>;
    },
  ) {}

  /**
   * A pass in a moment, for a burst of receipts: one pass after the last of
   * them rather than one each, out of the way of the payments still coming,
   * but no later than `atMostMs` after the first.
   */
  soon(delayMs = SOON_MS, atMostMs = SOON_AT_MOST_MS): void {
    const now = Date.now();
    this.soonSince ??= now;
    // An agent paying steadily would otherwise push the pass back for as long as it pays.
    if (this.soonTimer !== undefined && now - this.soonSince + delayMs > atMostMs) return;
    if (this.soonTimer !== undefined) clearTimeout(this.soonTimer);
    this.soonTimer = setTimeout(() => {
      this.soonTimer = undefined;
      this.soonSince = undefined;
      this.run().catch(() => undefined);
    }, delayMs);
  }

  /**
   * A pass no later than `at`, for a payment just signed whose page may never
   * report back: the alarm is armed for it unless it already fires sooner.
   * Unlike `soon`, an alarm outlives the worker stopping.
   */
  async lookBy(at: number): Promise<void> {
    // The pass under way may have read the payments before this one: the alarm it arms fires by
    // `at`. Not a pass again at once: an agent paying steadily would keep the tracker running.
    if (this.running) {
      this.lookByAfterPass = Math.min(this.lookByAfterPass ?? at, at);
      return;
    }
    if (this.armedAt !== undefined && this.armedAt <= at) return;
    this.armedAt = at;
    await this.deps.schedule(at);
  }

  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        let next: number | undefined;
        do {
          this.again = false;
          next = await this.deps.track().catch(async (error: unknown) => {
            // A one-shot alarm already fired: without another, nothing would look until an event.
            await this.arm(Date.now() + RETRY_FAILED_PASS_MS);
            throw error;
          });
        } while (this.again);
        await this.arm(next);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async arm(next: number | undefined): Promise<void> {
    const lookBy = this.lookByAfterPass;
    this.lookByAfterPass = undefined;
    const at = next === undefined || (lookBy !== undefined && lookBy < next) ? lookBy : next;
    this.armedAt = at;
    await this.deps.schedule(at);
  }
}
