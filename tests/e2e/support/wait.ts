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
