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

/**
 * A price the page met, as the hook saw it. Every field is a claim: the
 * background parses and verifies it before anything is shown or signed.
 */
export type PaymentChallenge =
  | {
      transport: "http";
      /** The URL the page requested, and its method. */
      url: string;
      method: string;
      /** The 402's body text (capped by the hook) and its PAYMENT-REQUIRED header. */
      body: string;
      paymentRequiredHeader: string | null;
    }
  | {
      transport: "mcp";
      /** The endpoint URL the page's MCP client POSTs to. */
      server: string;
      tool: string;
      arguments: unknown;
      /** A -32402 error, or a tools/call result flagged `isError` (x402 MCP). */
      error?: { code: number; message: string; data?: unknown };
      result?: unknown;
    };

/** How to retry the call with the payment attached. */
export interface PaymentAnswer {
  paymentId: string;
  /** HTTP: a header to add to the retried request. */
  header?: { name: "Stipendex-Payment" | "X-PAYMENT" | "PAYMENT-SIGNATURE"; value: string };
  /** MCP: an entry to add to the retried tools/call `params._meta`. */
  meta?: { key: "stipendex/payment" | "x402/payment"; value: unknown };
}

export interface PayParams {
  /** Chosen by the hook; asking again with the same id after a wallet restart resumes, never pays twice. */
  requestId: string;
  challenge: PaymentChallenge;
}

export interface ReceiptParams {
  paymentId: string;
  /** HTTP status (or 200 for MCP) of the paid retry. */
  status: number;
  /** The receipt as received: a header value (HTTP) or the result `_meta` value (MCP); null when none came. */
  receipt: unknown;
  /** MCP: the retried call's error when the server still refused the payment. */
  error?: { code: number; message: string; data?: unknown };
}

/** An MCP `elicitation/create` request's params, as the server sent them. */
export interface ElicitParams {
  server: string;
  params: { message?: string; requestedSchema?: unknown; _meta?: Record<string, unknown> };
}

/** MCP's ElicitResult. */
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean>;
}

export interface McpToolPricing {
  name: string;
  pricing: { model?: string; estimate?: string } | undefined;
}

export interface McpServerReport {
  server: string;
  /** `capabilities.experimental["stipendex/payments"]` from initialize, when declared. */
  stipendexPayments?: { version?: string };
  tools?: McpToolPricing[];
}

/** Methods a page may call. Each entry: the params it sends, the result it gets. */
export interface PageMethods {
  stipendex_status: { params: undefined; result: StatusResult };
  stipendex_pay: { params: PayParams; result: PaymentAnswer };
  stipendex_receipt: { params: ReceiptParams; result: { state: string } };
  stipendex_reportMcpServer: { params: McpServerReport; result: null };
  stipendex_getPricing: { params: { server: string }; result: McpServerReport | null };
  stipendex_elicit: { params: ElicitParams; result: ElicitResult };
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
