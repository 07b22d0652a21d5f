import { setTimeout as sleep } from "node:timers/promises";
import { StipendexError } from "../../../lib/errors";

export class WaitTimeoutError extends StipendexError {
  override name = "WaitTimeoutError";

  constructor(what: string, timeoutMs: number) {
    super("wait-timeout", `Gave up after ${timeoutMs} ms waiting for ${what}`);
  }
}

/** Polls `condition` until it holds; throws WaitTimeoutError naming `what` after `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean,
  what: string,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new WaitTimeoutError(what, timeoutMs);
    await sleep(intervalMs);
  }
}

/**
 * Polls `probe` until it gives a value (not undefined, null or false) and
 * returns it; a probe that throws (a page between documents) counts as not
 * yet. For pages a driver's own waitForFunction cannot wait in: Firefox runs
 * its predicate through `Function()`, which an extension page's CSP blocks.
 */
export async function pollFor<T>(
  probe: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new WaitTimeoutError(what, timeoutMs);
    await sleep(intervalMs);
  }
}

/**
 * `promise`, or WaitTimeoutError naming `what` after `timeoutMs`: a setup
 * step that hangs fails with its name instead of running out the suite's
 * clock with no word of where.
 */
export async function within<T>(promise: Promise<T>, what: string, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WaitTimeoutError(what, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
