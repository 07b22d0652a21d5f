/**
 * One request from a browser page to the bench receiver's `/clock`: `sentAt` and `receivedAt`
 * on the page's clock, `receiverAt` (when the request arrived) on the receiver's.
 */
export interface ClockPing {
  sentAt: number;
  receiverAt: number;
  receivedAt: number;
}

/** The receiver's clock minus a page's: add `offsetMs` to a page time to put it on the receiver's clock. */
export interface ClockOffset {
  offsetMs: number;
  /** The true offset lies within ± this of `offsetMs`. */
  boundMs: number;
}

/**
 * The offset from the ping with the shortest round trip: the receiver read its clock somewhere
 * between the page's two readings, so the midpoint is off by at most half the round trip, plus
 * the page clock's `resolutionMs` (a coarsened reading may be off by up to one step either way).
 */
export function clockOffset(pings: readonly ClockPing[], resolutionMs = 0): ClockOffset {
  let best: ClockPing | undefined;
  for (const ping of pings) {
    if (ping.receivedAt < ping.sentAt) throw new RangeError("a ping came back before it was sent");
    if (!best || ping.receivedAt - ping.sentAt < best.receivedAt - best.sentAt) best = ping;
  }
  if (!best) throw new RangeError("clockOffset needs at least one ping");
  return {
    offsetMs: best.receiverAt - (best.sentAt + best.receivedAt) / 2,
    boundMs: (best.receivedAt - best.sentAt) / 2 + resolutionMs,
  };
}

/**
 * The smallest step between successive distinct readings of a clock: its resolution as seen
 * (1 ms in Firefox pages, about 0.1 ms in Chromium's). `readings` in the order they were taken.
 */
export function clockStep(readings: readonly number[]): number {
  let step = Number.POSITIVE_INFINITY;
  for (let i = 1; i < readings.length; i++) {
    const difference = (readings[i] ?? 0) - (readings[i - 1] ?? 0);
    if (difference < 0) throw new RangeError("clock readings went backwards");
    if (difference > 0) step = Math.min(step, difference);
  }
  if (step === Number.POSITIVE_INFINITY) throw new RangeError("the clock never moved");
  return step;
}
