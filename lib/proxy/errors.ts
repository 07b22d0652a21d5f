import { errorGuard, errorText, StipendexError } from "../errors";

/** Why the proxy could not forward a call, or could not have it paid. */
export type ProxyErrorCode =
  /** A native-messaging or channel frame larger than its side accepts. */
  | "frame-too-large"
  /** A frame that is not JSON, or not a message of the channel's protocol. */
  | "frame-malformed"
  /** No native host listens: the browser (or the wallet in it) is not running. */
  | "wallet-not-running"
  /** No browser has the native host manifest: `stipendex-proxy install` was never run. */
  | "link-not-installed"
  /** The wallet's channel directory or socket is not this user's alone. */
  | "channel-unsafe"
  /** The channel closed before the wallet answered. */
  | "link-lost"
  /** The wallet is locked: the person unlocks it in the browser. */
  | "wallet-locked"
  /** The browser has the extension but no wallet was created in it yet. */
  | "no-wallet"
  /** The person declined, or the wallet refused or could not pay. */
  | "payment-not-made"
  /** Another native host already serves this user's channel. */
  | "channel-busy"
  /** The command line names no mode the proxy knows, or lacks what a mode needs. */
  | "usage"
  /** The MCP server answered a request over HTTP with no JSON-RPC answer in it. */
  | "upstream-no-answer"
  /** A tool call priced with HTTP 402 was paid, and its paid retry brought the server's refusal or no answer. */
  | "paid-retry-failed";

export class ProxyError extends StipendexError {
  override name = "ProxyError";
  declare readonly code: ProxyErrorCode;

  constructor(code: ProxyErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

export const isProxyError = errorGuard(ProxyError);

/**
 * The MCP server answered with an HTTP error (`status`), or with a 2xx that
 * has no JSON-RPC answer in it (`status` undefined for a body neither JSON nor
 * SSE: the SDK does not say which 2xx); the message is what the server said,
 * or the SDK's or the proxy's words for it.
 */
export class UpstreamAnswerError extends ProxyError {
  override name = "UpstreamAnswerError";
  /** What the wallet files of a paid retry answered so: an SSE stream that ended without the answer, or another answer. */
  readonly unanswered: "not-an-answer" | "stream-ended";

  constructor(
    readonly status: number | undefined,
    message: string,
    options?: { cause?: unknown; streamEnded?: boolean },
  ) {
    super("upstream-no-answer", message, options);
    this.unanswered = options?.streamEnded ? "stream-ended" : "not-an-answer";
  }
}

/** What went wrong, with its cause's words: undici's `fetch failed` says why only there. */
export function failureText(error: unknown): string {
  const text = errorText(error);
  return error instanceof Error && error.cause instanceof Error
    ? `${text} (${error.cause.message})`
    : text;
}

/**
 * A tool call priced with HTTP 402 (seed 004) that the wallet paid, whose
 * paid retry the server refused (`refusal`: what its 402 said, verbatim) or
 * answered with no answer to the call; the wallet was told (http-402.ts).
 */
export class PaidRetryError extends ProxyError {
  override name = "PaidRetryError";

  constructor(
    readonly paymentId: string,
    readonly refusal: string | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super("paid-retry-failed", message, options);
  }
}

/**
 * A tool call priced with HTTP 402 (seed 004) that the wallet did not pay:
 * the message is the wallet's reason (declined, locked, not running), `price`
 * what the server's 402 said.
 */
export class UnpaidHttp402Error extends ProxyError {
  override name = "UnpaidHttp402Error";

  constructor(
    readonly price: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super("payment-not-made", message, options);
  }
}
