import { errorText } from "../errors";
import {
  ErrorCode,
  type HookToRelay,
  RELAY_STARTED,
  type RelayToHook,
  TO_PAGE,
  TO_RELAY,
  type WireResponse,
} from "../messages";
import { ExtensionGoneError, PortClosedError } from "./port-sender";

export type SendToBackground = (message: unknown) => Promise<WireResponse>;

export interface RetryPolicy {
  /** How many times a message is sent before the page gets an error. */
  tries: number;
  /** Wait before the 2nd try; doubled before each later one. */
  firstDelayMs: number;
  /**
   * A request the background held at least `heldMs` before its port closed was being worked on
   * (a payment waiting for the person) when the worker stopped: sent again, uncounted, for as
   * long as `patienceMs` from the first send.
   */
  heldMs?: number;
  patienceMs?: number;
}

/**
 * ~1.5 s of failed tries: long enough for Chrome to start a stopped worker again. A payment
 * the person takes minutes over outlives the worker (stopped after 30 s idle, the window
 * waiting sends it nothing): resent each time, for up to 30 minutes.
 */
export const DEFAULT_RETRY: RetryPolicy = {
  tries: 5,
  firstDelayMs: 100,
  heldMs: 5_000,
  patienceMs: 30 * 60_000,
};

/** The extension was reloaded or removed: no later try can reach it. */
const PERMANENT = /Extension context invalidated/i;

/**
 * The isolated-world relay: forwards the hook's messages (events on this very
 * window, see bridge.ts) to the background, and dispatches the answers back.
 * It decides nothing; the background takes the origin from the browser, not
 * from here.
 *
 * The background answers its own failures as data, so a rejected send is the
 * transport failing, typically the worker being stopped mid-request. The
 * relay then sends the very same message again: a restarted worker resumes a
 * payment by its requestId instead of paying twice. A relay that starts in a
 * page whose hook is already waiting (Firefox hands open tabs an updated
 * extension's scripts) tells it, and the hook sends its requests again.
 */
export function startRelay(
  win: Window,
  send: SendToBackground,
  retry: RetryPolicy = DEFAULT_RETRY,
): void {
  // The ids this relay carries now. The page sees the hook's events and can send one again (or
  // have the hook resend them all, RELAY_STARTED): a copy is not sent on, so no answer to a copy
  // (a rate limit's refusal, say) can stand for the request the background is still working on.
  const carrying = new Set<string>();
  win.addEventListener(TO_RELAY, (event) => {
    const data = readDetail(event);
    if (!isHookMessage(data) || carrying.has(data.id)) return;
    carrying.add(data.id);
    const done = () => carrying.delete(data.id);
    const reply = (response: WireResponse) => {
      // The page gets the server's answer unpaid, and no word of why: its developer finds it here.
      if (!response.ok && data.request.method === "stipendex_pay") {
        console.warn(`Stipendex Wallet did not pay: ${response.error.message}`);
      }
      const message: RelayToHook = { id: data.id, response };
      win.dispatchEvent(new CustomEvent(TO_PAGE, { detail: JSON.stringify(message) }));
    };
    const message = { channel: "page", method: data.request.method, params: data.request.params };
    if (data.noAnswer) {
      // Still retried until the background takes it; only the answer is not posted back.
      sendWithRetry(send, message, retry)
        .catch(() => undefined)
        .finally(done);
      return;
    }
    sendWithRetry(send, message, retry)
      .finally(done)
      .then(reply, (error: unknown) =>
        reply({
          ok: false,
          error: {
            code: ErrorCode.Internal,
            message: `Wallet unreachable: ${errorText(error)}`,
          },
        }),
      );
  });
  win.dispatchEvent(new CustomEvent(TO_PAGE, { detail: JSON.stringify(RELAY_STARTED) }));
}

/**
 * Sends `message` until the background answers, up to `retry.tries` times with doubling waits;
 * one it held a while before it stopped is sent again without counting (see RetryPolicy).
 */
export async function sendWithRetry(
  send: SendToBackground,
  message: unknown,
  retry: RetryPolicy,
): Promise<WireResponse> {
  const started = Date.now();
  let delay = retry.firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    const sent = Date.now();
    try {
      return await send(message);
    } catch (error) {
      const permanent =
        error instanceof ExtensionGoneError ||
        (error instanceof Error && PERMANENT.test(error.message));
      const held =
        error instanceof PortClosedError &&
        Date.now() - sent >= (retry.heldMs ?? Number.POSITIVE_INFINITY) &&
        Date.now() - started < (retry.patienceMs ?? 0);
      if (held) {
        attempt = 0;
        delay = retry.firstDelayMs;
      } else if (permanent || attempt >= retry.tries) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay *= 2;
  }
}

/** The JSON text an event of the bridge carries, parsed (null when it carries none). */
function readDetail(event: Event): Partial<HookToRelay> | null {
  const { detail } = event as CustomEvent<unknown>;
  if (typeof detail !== "string") return null;
  try {
    return JSON.parse(detail) as Partial<HookToRelay> | null;
  } catch {
    return null;
  }
}

function isHookMessage(data: Partial<HookToRelay> | null): data is HookToRelay {
  return (
    typeof data === "object" &&
    data !== null &&
    typeof data.id === "string" &&
    typeof data.request === "object" &&
    data.request !== null &&
    typeof data.request.method === "string"
  );
}
