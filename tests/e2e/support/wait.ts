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

/**
 * Polls the async `check` until it resolves true (a rejection counts as not
 * yet); throws WaitTimeoutError naming `what` after `timeoutMs`. For waits
 * inside extension pages, whose CSP forbids the eval that Puppeteer's
 * waitForFunction and custom selectors use in Firefox ESR 140.
 */
export async function untilTrue(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new WaitTimeoutError(what, timeoutMs);
    await sleep(25);
  }
}
