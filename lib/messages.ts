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

import type { PaymentState } from "./payment-states";

export const PROVIDER_VERSION = "0.1.0";

/** The events the page hook and the relay talk by, on the page's window (lib/hook/bridge.ts). */
export const TO_RELAY = "stipendex:to-relay";
export const TO_PAGE = "stipendex:to-page";

/**
 * What a relay sends the hook when it starts. Firefox gives the open tabs a
 * reloaded or updated extension's new relay, while the old one, and every
 * request it carried, is gone: the hook sends the requests it still waits on
 * again (a restarted background resumes a payment by its requestId).
 */
export const RELAY_STARTED = 0;

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
/**
 * A tools/call as its caller sent it: the tool's name, and its arguments (`{}`
 * when none; absent when too long to pass on, see DESCRIBED_ARGUMENTS_CHARS).
 */
export interface DescribedCall {
  tool: string;
  arguments?: unknown;
}

export type PaymentChallenge =
  | {
      transport: "http";
      /** The URL the page requested, and its method. */
      url: string;
      method: string;
      /** The 402's body text (capped by the hook) and its PAYMENT-REQUIRED header. */
      body: string;
      paymentRequiredHeader: string | null;
      /**
       * The MCP tools/call the priced POST carries (seed 004 prices a call by HTTP 402),
       * as the page says: the price names the address, not the tool.
       */
      call?: DescribedCall;
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
  /** MCP: base64url SHA-256 of the RFC 8785 JSON of the paid result's `content`, for the Receipt's `resultHash`. */
  resultHash?: string;
  /**
   * Why the paid retry brought no result, when the server did not refuse it
   * either: without a receipt the payment stays signed (the chain tells whether
   * it was collected); beside one, history says it as well.
   */
  unanswered?: Unanswered;
  /**
   * The JSON-RPC error the server answered the paid call with, when it is not a
   * refusal (-32402, x402's PaymentRequired); `unanswered` is then "error-answer".
   */
  answerError?: { code: number; message: string };
}

/**
 * A paid retry without the answer it paid for: no HTTP answer at all (the
 * connection failed or was cut), an answer that is not the call's result (a
 * body that is no JSON-RPC answer, an HTTP error other than a 402), a stream
 * that ended before the result, a signed payment never sent (a paywalled
 * page that loaded something else first), a paid retry its caller gave up
 * once it was sent (the page aborted it, the desktop host cancelled the
 * call), a JSON-RPC error other than a refusal (see `answerError`), or a
 * redirect (which a paid request never follows).
 */
export const UNANSWERED = [
  "no-response",
  "not-an-answer",
  "stream-ended",
  "not-sent",
  "given-up",
  "error-answer",
  "redirected",
] as const;
export type Unanswered = (typeof UNANSWERED)[number];

/** An MCP `elicitation/create` request's params, as the server sent them. */
export interface ElicitParams {
  server: string;
  /** The tools/call in flight whose stream carried the elicitation, when there is one. */
  call?: { tool: string; arguments: unknown };
  /** The caller's id for this elicitation, by which it may withdraw it (`stipendex_withdraw`). */
  requestId?: string;
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

/**
 * What an MCP server's answer declared, as the hook passes it on unread (the
 * background reads and bounds it into a McpServerReport: page-params.ts).
 */
export interface McpServerSighting {
  server: string;
  /** An `initialize` result's `capabilities.experimental["stipendex/payments"]`. */
  stipendexPayments?: unknown;
  /** A `tools/list` result's tools, each as its name and `_meta["stipendex/pricing"]`. */
  tools?: { name: unknown; pricing: unknown }[];
}

/** Methods a page may call. Each entry: the params it sends, the result it gets. */
export interface PageMethods {
  stipendex_status: { params: undefined; result: StatusResult };
  stipendex_pay: { params: PayParams; result: PaymentAnswer };
  stipendex_receipt: { params: ReceiptParams; result: { state: string } };
  stipendex_reportMcpServer: {
    params: McpServerSighting;
    /** What the handler gets once page-params.ts has read the sighting. */
    parsed: McpServerReport;
    result: null;
  };
  stipendex_getPricing: { params: { server: string }; result: McpServerReport | null };
  /** The page hook's MCP half, run in the asking frame's page world (the hook asks on first MCP use). */
  stipendex_loadMcp: { params: undefined; result: null };
  stipendex_elicit: { params: ElicitParams; result: ElicitResult };
  /**
   * The page gave up the request it asked `stipendex_pay` (or `stipendex_elicit`)
   * for: its fetch or XHR was aborted, its server cancelled the elicitation. A
   * decision still waiting for the person is withdrawn.
   */
  stipendex_withdraw: { params: { requestId: string }; result: null };
}

/**
 * The request id of a `stipendex_pay` or `stipendex_elicit` (the methods that
 * may wait for a person), by which its caller withdraws it; undefined for
 * anything else. `message` is as it came: `{ method, params }`.
 */
export function withdrawableRequestId(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== "stipendex_pay" && method !== "stipendex_elicit") return undefined;
  if (typeof params !== "object" || params === null) return undefined;
  const { requestId } = params as { requestId?: unknown };
  return typeof requestId === "string" ? requestId : undefined;
}

/*
 * The wallet's own pages. Values cross `runtime.sendMessage`, which carries
 * JSON only: amounts travel as decimal strings of atomic (or micro) units.
 */

export interface WalletState {
  hasWallet: boolean;
  locked: boolean;
  /** EVM address that pays (known from the vault even while locked). */
  address?: string;
  /** Thumbprint URI of the wallet's signing key (known once unlocked). */
  walletId?: string;
  autoLockMinutes: number;
  /** The wallet made this key and the person has not yet confirmed saving a copy. */
  backupPending?: boolean;
}

/** One token the wallet holds, as the popup and the confirmation window show it. */
export interface BalanceRow {
  network: string;
  /** The network as a person names it ("Base Sepolia"). */
  networkName: string;
  testnet: boolean;
  asset: string;
  symbol: string;
  decimals: number;
  /** The currency it counts in ("USD"; "test USD" on a test network), when the wallet knows. */
  currency?: string;
  /** Atomic units on chain, decimal string; absent when it could not be read. */
  amount?: string;
  /** Atomic units signed away but not yet collected (or released): still the payee's to take. */
  pending: string;
  /** Why the balance could not be read, in words. */
  problem?: string;
}

/** An amount as the person should read it. */
export interface DisplayAmount {
  /** Atomic units, decimal string. */
  atomic: string;
  decimals: number;
  symbol: string;
  /** Exact human form, e.g. "0.005". */
  formatted: string;
  network: string;
  networkName: string;
  testnet: boolean;
}

export type ApprovalWarning =
  | "unverified-receiver"
  | "first-payment-to-receiver"
  | "far-above-usual"
  | "above-price-hint"
  | "server-did-not-declare-payments"
  /** The server's signed Quote did not read or verify: what is asked is its unsigned x402 price. */
  | "signed-price-refused"
  /** An x402 MCP price found only as text in the tool's answer, which may be another site's text. */
  | "price-in-tool-text"
  | "testnet"
  | "mainnet"
  /** The paying address does not hold enough of the token for this payment (never auto-approved). */
  | "insufficient-balance"
  /**
   * The request came while its site or tab was quiet (the person had just closed the window on
   * it) and waited behind the toolbar badge: not the request that opened the window.
   */
  | "waited-unshown";

/** Page text cut to a bound: its first characters, and how many more it had. */
export interface ShownText {
  text: string;
  omitted: number;
}

/**
 * An MCP tool call's arguments as the confirmation window lists them (built by
 * lib/payments/tool-arguments.ts): the first few by name, each value as JSON.
 * An entry without a name is arguments that are not an object, shown whole.
 */
export interface ShownArguments {
  listed: { name?: ShownText; value: ShownText }[];
  /** Arguments the call has beyond those listed. */
  unlisted: number;
}

/** A payment (or an MCP payment elicitation) waiting for the person's decision. */
export interface PendingApproval {
  id: string;
  kind: "payment" | "elicitation";
  createdAt: number;
  /** The requesting page's (or frame's) origin as the browser reported it. */
  origin: string;
  /** The token's spendable balance now and after this payment (atomic units; after may be negative), when read. */
  balance?: { available: string; after: string };
  /** When a frame asks: the site of the tab it is embedded in. */
  topOrigin?: string;
  /** Set when "always allow" cannot give `origin` a budget, saying why (plain http outside loopback). */
  alwaysAllowBlocked?: string;
  /**
   * A desktop app's x402 payee it has no approval to pay: approving lets its
   * budget pay this address without asking from then on (lib/wallet/approved-payees.ts).
   */
  approvesPayee?: true;
  /**
   * The policy pays it on its own (a budget covers it); it waits only because the wallet is
   * locked: unlocking pays it, unless by then the budget no longer covers it.
   */
  paidOnUnlock?: true;
  protocol: "stipendex" | "x402-v1" | "x402-v2";
  /**
   * Who is paid: the verified Quote issuer, or for an unsigned (x402) price the
   * account paid ("eip155:<chain>:<pay-to>") with `claimedBy`, the origin the
   * page said the price came from.
   */
  receiver: { id: string; verified: boolean; name?: string; registry?: string; claimedBy?: string };
  payTo: string;
  description: string;
  /** Characters of the description left out (lib/payments/approval-view.ts KEPT_DESCRIPTION_CHARS). */
  descriptionOmitted?: number;
  resource:
    | {
        kind: "http";
        method: string;
        url: string;
        /**
         * The MCP tools/call the page says this POST carries (seed 004): its word, not the
         * price's; `arguments` absent when they were too long to pass on.
         */
        call?: { tool: string; arguments?: ShownArguments };
      }
    /**
     * `arguments`: the call's, when the wallet was given the call (absent in the history);
     * `argumentsUnknown`: a window's request the wallet was given no call for (an elicitation
     * outside one, arguments not hashing to the price's), so it cannot show what is asked;
     * `unsigned`: an x402 price, which binds neither: tool and arguments are the page's word.
     */
    | {
        kind: "mcp";
        server: string;
        tool: string;
        arguments?: ShownArguments;
        argumentsUnknown?: true;
        unsigned?: true;
      };
  amount: DisplayAmount;
  /** The currency budgets count this payment in (e.g. "USD" for USDC): what "always allow" is in. */
  currency: string;
  /** Display total the receiver stated (Stipendex `total`, its decimal text as sent). */
  total?: { amount: string; currency: string };
  /** Each limit after this payment, in atomic micro-units, for the window to put in the person's words. */
  remaining: RemainingView[];
  warnings: ApprovalWarning[];
  /** MCP: the price the server's tools/list announced for this tool (`stipendex/pricing`). */
  priceHint?: { estimate: string; model?: string };
  /** MCP: the server declared `experimental["stipendex/payments"]` when the page connected. */
  declaredPayments?: { version?: string };
  /** Fields the price left out and the wallet filled in with a documented default. */
  defaults?: { field: string; value: string }[];
  /** Set when the wallet is locked: the window must ask for the password first. */
  needsUnlock: boolean;
  expiresAt?: number;
  /**
   * How long the receiver can collect the payment once it is signed (the
   * authorization's validity, the option's maxTimeoutSeconds): an approved
   * payment may be charged that long after, whatever the price's own expiry.
   */
  collectableForSeconds: number;
}

/** A top-level page that answered 402 with a price: what the popup offers to pay. */
export interface PageOfferView {
  /** Names this price as shown: paying names it back, and a tab showing another price by then pays nothing. */
  viewId: string;
  url: string;
  origin: string;
  description: string;
  amount: DisplayAmount;
  /** Approved: the page is being loaded with the payment. */
  paying: boolean;
}

export interface DecideParams {
  approvalId: string;
  decision: "approve" | "decline";
  /** "Always allow up to … per day for this site": micro units (6 decimals) of the payment's currency. */
  alwaysAllowPerDay?: string;
}

export interface OriginBudgetView {
  currency: string;
  /** Micro units (6 decimals), decimal strings. */
  amount: string;
  period: "day" | "week" | "month" | "none";
  autoApproveUpTo: string;
  perCallMax: string;
  /** Auto-approve an MCP tool's price only at or below what its tools/list announced. */
  withinPriceHint?: boolean;
}

export interface PolicyView {
  globalCaps: Record<string, { day?: string; month?: string }>;
  origins: Record<string, OriginBudgetView>;
  receivers: { allow: string[]; deny: string[] };
  networks: string[];
  assets: { network: string; asset: string; decimals: number; symbol: string; currency: string }[];
  trustedRegistries: { name: string; url: string; jwk: unknown }[];
  /** JSON-RPC endpoints the person chose, by network ("eip155:8453"); others use the defaults. */
  rpcEndpoints?: Record<string, string>;
  /**
   * Grows with every change. A save carrying an older revision is refused
   * (another change was made since the page read it); a save without one replaces.
   */
  revision?: number;
}

export interface SpendSummary {
  currency: string;
  /** Micro units spent today and this month, all sites, and the caps (absent: no cap). */
  today: string;
  month: string;
  dayCap?: string;
  monthCap?: string;
  /** When asked for an origin: its budget and what remains of it this period. */
  origin?: { origin: string; budget?: OriginBudgetView; spent: string; remaining?: string };
}

/** A payment's state as the ledger keeps it (see lib/wallet/payment-state.ts). */
export type PaymentStateView = PaymentState;

export interface PaymentRow {
  id: string;
  createdAt: number;
  state: PaymentStateView;
  origin: string;
  receiver: string;
  /** The name the receiver's descriptor gives it (Stipendex), when the payment has one. */
  receiverName?: string;
  /** Tool name or URL. */
  what: string;
  /**
   * The MCP tool an HTTP-priced call is said to be (seed 004's 402), as the
   * page or desktop app said: the price names only the address.
   */
  describedTool?: string;
  amount: DisplayAmount;
  reason?: string;
}

/** The history's order by time. */
export type PaymentOrder = "newest" | "oldest";

/**
 * What one site or receiver was paid in one token on one network: the payments
 * that hold a charge (what the budgets count), whatever their state.
 */
export interface SpendByTotal {
  /** The site's origin or the receiver's id. */
  key: string;
  /** CAIP-2 id ("eip155:8453"). */
  network: string;
  /** The network as a person names it ("Base Sepolia"). */
  networkName: string;
  /** Test money (a testnet's token): counted apart from real money, in "test" currencies. */
  testnet: boolean;
  /** The token's contract address. */
  asset: string;
  symbol: string;
  decimals: number;
  /** Atomic units, decimal string. */
  atomic: string;
  count: number;
}

export interface PaymentFilter {
  origin?: string;
  receiver?: string;
  state?: PaymentStateView;
  from?: number;
  to?: number;
  text?: string;
}

/** What one limit leaves after a payment: all sites' or this site's, for a period, in micro-units. */
export interface RemainingView {
  scope: "global" | "origin";
  period: OriginBudgetView["period"];
  currency: string;
  micro: string;
}

export interface DecodedObject {
  kind: "quote" | "confirmation" | "proof" | "receipt" | "x402-payment" | "x402-settlement";
  compact?: string;
  header?: Record<string, unknown>;
  claims: Record<string, unknown>;
  verified: boolean;
  /** Signed by nobody (an x402 settle response, the server's word passed on by the page): not verified, nor failed. */
  unsigned?: true;
  /**
   * Signed with a key its receiver's descriptor no longer lists (receivers rotate their keys):
   * not checkable now, nor failed; the wallet checked it when it was paid (or received).
   */
  keyNoLongerListed?: true;
  problem?: string;
}

export interface PaymentDetail extends PaymentRow {
  resource: PendingApproval["resource"];
  payTo: string;
  network: string;
  objects: DecodedObject[];
  /** The settlement transaction, found on chain or claimed by the receiver. */
  settlementTransaction?: string;
  /** Its page on the network's explorer, when the wallet knows one. */
  explorerUrl?: string;
  /** What the chain said when the wallet checked (see lib/payments/settlement-tracker.ts). */
  settlementCheck?: {
    status: "confirmed" | "used" | "unconfirmed" | "mismatch";
    blockNumber?: string;
    problem?: string;
  };
  /** A receiver's refusal in its own words. */
  receiverSaid?: string;
  /** Nothing was paid and the price was too large to keep whole: only its summary was kept. */
  offerTrimmed?: true;
}

/** Counts since the background worker started: requests answered by method, IndexedDB transactions by mode. */
export interface Diagnostics {
  requests: Record<string, number>;
  transactions: { readonly: number; readwrite: number };
  /** By method, the milliseconds the background took over its latest requests (message in → answer out), oldest first. */
  handlingMs: Record<string, number[]>;
}

/** Methods only the wallet's own pages may call. */
export interface UiMethods {
  ui_status: { params: undefined; result: StatusResult };
  ui_getDiagnostics: { params: undefined; result: Diagnostics };
  /** The paying address's balance of every token on an enabled network, read from each network's RPC. */
  ui_getBalances: { params: undefined; result: { address: string; balances: BalanceRow[] } };
  /** One pass of the settlement tracker now (history asks when it opens). */
  ui_checkSettlements: { params: undefined; result: null };
  ui_getState: { params: undefined; result: WalletState };
  ui_createWallet: {
    params: { password: string; importPrivateKey?: string };
    result: WalletState;
  };
  ui_unlock: { params: { password: string }; result: WalletState };
  ui_lock: { params: undefined; result: WalletState };
  ui_changePassword: { params: { oldPassword: string; newPassword: string }; result: null };
  ui_exportKey: { params: { password: string }; result: { privateKey: string } };
  /** The person confirmed a copy of the key is saved: the backup reminder goes away. */
  ui_confirmBackup: { params: undefined; result: WalletState };
  ui_setAutoLock: { params: { minutes: number }; result: WalletState };
  ui_listPending: { params: undefined; result: PendingApproval[] };
  /** Opens the confirmation window on what waits, or brings it forward (the popup's button). */
  ui_showConfirmWindow: { params: undefined; result: null };
  ui_decide: { params: DecideParams; result: null };
  ui_getSpend: { params: { origin?: string }; result: SpendSummary[] };
  ui_getPolicy: { params: undefined; result: PolicyView };
  ui_setPolicy: { params: PolicyView; result: PolicyView };
  ui_listPayments: {
    params: { filter: PaymentFilter; offset: number; limit: number; order?: PaymentOrder };
    result: { rows: PaymentRow[]; total: number };
  };
  /** Totals per site and per receiver, per network and token, of the filter's payments that hold a charge. */
  ui_spendBy: {
    params: { filter: PaymentFilter };
    result: { sites: SpendByTotal[]; receivers: SpendByTotal[] };
  };
  ui_getPayment: { params: { id: string }; result: PaymentDetail };
  ui_spendPerDay: {
    params: { filter: PaymentFilter; days: number };
    result: { day: string; currency: string; amount: string }[];
  };
  ui_exportPayments: {
    params: { filter: PaymentFilter; format: "csv" | "json" };
    result: { filename: string; mimeType: string; content: string };
  };
  /** Deletes finished payments; `kept` still being settled or whose Quote is still valid (see lib/wallet/ledger.ts deleteHistory). */
  ui_deleteHistory: { params: { confirm: true }; result: { deleted: number; kept: number } };
  ui_getPricing: { params: { origin: string }; result: McpServerReport[] };
  /** The paywalled page open in a tab, when it asked for a payment the wallet can make. */
  ui_getPageOffer: { params: { tabId: number }; result: PageOfferView | null };
  /** Pays a tab's page offer through the payment engine, then loads the page once with the payment. */
  ui_payPage: { params: { tabId: number; viewId: string }; result: { paymentId: string } };
}

export type PageMethod = keyof PageMethods;
export type UiMethod = keyof UiMethods;

/** A page method's params as its handler receives them: parsed, when parsing reshapes them. */
export type PageParams<M extends PageMethod> = {
  [K in PageMethod]: PageMethods[K] extends { parsed: infer P } ? P : PageMethods[K]["params"];
}[M];

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

/** The page hook's envelope to the relay (JSON in an event on the window: lib/hook/bridge.ts). */
export interface HookToRelay {
  id: string;
  request: PageRequest;
  /** A notification (a receipt, a server sighting): nobody in the page waits for its answer. */
  noAnswer?: true;
}

/** The runtime port a page's relay talks to the background on (one per frame, opened on first use). */
export const PAGE_PORT = "stipendex:page";

/** A page request on the relay's port, numbered so its answer finds it. */
export interface PortRequest {
  id: number;
  message: unknown;
}

/** The background's answer on the relay's port. */
export interface PortResponse {
  id: number;
  response: WireResponse;
}

/** The relay's envelope back to the page hook. */
export interface RelayToHook {
  id: string;
  response: WireResponse;
}

/** Error codes, EIP-1193 style; frozen, as pages are handed this very object. */
export const ErrorCode = Object.freeze({
  UserRejected: 4001,
  Unauthorized: 4100,
  UnsupportedMethod: 4200,
  Locked: 4900,
  BudgetExceeded: 4910,
  InvalidQuote: 4920,
  /** A site sent more requests (or payment requests) a minute than the wallet takes from one site. */
  RateLimited: 4930,
  /** A site already has as many payment requests waiting as the wallet holds for one site. */
  TooManyPending: 4931,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
} as const);
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Thrown to page code when the wallet answers with an error; `code` is EIP-1193-style. */
export class ProviderRpcError extends Error {
  override name = "ProviderRpcError";
  // Declared only: set in the constructor (no class-field initialisers in the page hook's bytes).
  declare readonly code: number;
  declare readonly data: unknown;

  constructor(error: WireError) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
  }
}

/*
 * The desktop proxy (`stipendex-proxy`): a desktop MCP host's calls reach the
 * wallet over browser native messaging, through a native host that relays
 * between proxy processes (a local channel only this OS user can open) and
 * the background. The background answers them as their own kind of caller,
 * keyed by the upstream server (see lib/wallet/budget-origin.ts).
 */

/** The native messaging host's name, in its manifests and in `runtime.connectNative`. */
export const NATIVE_HOST_NAME = "dev.stipendex.wallet";

/** What a proxy may ask: the page methods that pay, and whether the wallet can pay now. */
export type ProxyMethod =
  | "stipendex_pay"
  | "stipendex_withdraw"
  | "stipendex_receipt"
  | "stipendex_elicit"
  | "stipendex_reportMcpServer"
  | "proxy_status";

/** `proxy_status`: whether the wallet in this browser can pay (or what the person must do first). */
export interface ProxyStatus {
  version: string;
  hasWallet: boolean;
  locked: boolean;
}

/** A proxy's request on the local channel. `upstream`: the MCP server URL it forwards to. */
export interface ChannelRequest {
  id: number;
  upstream: string;
  method: ProxyMethod;
  params?: unknown;
}

/** The answer to a ChannelRequest, by its id. */
export interface ChannelResponse {
  id: number;
  response: WireResponse;
}

/** A ChannelRequest as the native host passes it to the background, with the channel connection it came on. */
export interface NativeRequest extends ChannelRequest {
  link: number;
}

/** The background's answer to a NativeRequest. */
export interface NativeResponse extends ChannelResponse {
  link: number;
}
