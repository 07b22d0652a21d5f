/**
 * Every message the wallet understands, in one place.
 *
 * Two channels reach the background:
 * - `page`: requests from a web page's `window.stipendex`, carried by the relay.
 *   Untrusted: the background answers them for the origin the browser reports
 *   in `sender`, never for an origin named in the payload.
 * - `ui`: requests from the wallet's own extension pages (popup, confirmation
 *   window, history). Accepted only from senders whose URL is inside the
 *   extension.
 */

export const PROVIDER_VERSION = "0.1.0";

/** Tags on `window.postMessage` traffic between the page hook and the relay. */
export const TO_RELAY = "stipendex:to-relay";
export const TO_PAGE = "stipendex:to-page";

export const ANNOUNCE_EVENT = "stipendex:announceProvider";
export const REQUEST_PROVIDER_EVENT = "stipendex:requestProvider";

export interface StatusResult {
  version: string;
  /** The requesting page's origin, as the browser reported it to the background. */
  origin: string;
}

/** Methods a page may call. Each entry: the params it sends, the result it gets. */
export interface PageMethods {
  stipendex_status: { params: undefined; result: StatusResult };
}

/** Methods only the wallet's own pages may call. */
export interface UiMethods {
  ui_status: { params: undefined; result: StatusResult };
}

export type PageMethod = keyof PageMethods;
export type UiMethod = keyof UiMethods;

export type PageRequest = {
  [M in PageMethod]: { method: M; params: PageMethods[M]["params"] };
}[PageMethod];

export type UiRequest = {
  [M in UiMethod]: { method: M; params: UiMethods[M]["params"] };
}[UiMethod];

/** What `runtime.sendMessage` carries to the background. */
export type BackgroundMessage =
  | ({ channel: "page" } & PageRequest)
  | ({ channel: "ui" } & UiRequest);

/** Errors cross the boundary as data: numbered like EIP-1193's, with a message. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

export type WireResponse<T = unknown> = { ok: true; result: T } | { ok: false; error: WireError };

/** The page hook's envelope to the relay (window.postMessage). */
export interface HookToRelay {
  tag: typeof TO_RELAY;
  id: string;
  request: PageRequest;
}

/** The relay's envelope back to the page hook. */
export interface RelayToHook {
  tag: typeof TO_PAGE;
  id: string;
  response: WireResponse;
}

/** Error codes, EIP-1193 style. */
export const ErrorCode = {
  UserRejected: 4001,
  Unauthorized: 4100,
  UnsupportedMethod: 4200,
  Locked: 4900,
  BudgetExceeded: 4910,
  InvalidQuote: 4920,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
