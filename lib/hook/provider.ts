import {
  ANNOUNCE_EVENT,
  type ElicitParams,
  type ElicitResult,
  ErrorCode,
  type McpServerReport,
  type PaymentAnswer,
  PROVIDER_VERSION,
  REQUEST_PROVIDER_EVENT,
} from "../messages";
import type { Requester } from "./bridge";
import type { WalletLink } from "./wallet-link";

export interface ProviderInfo {
  name: string;
  rdns: string;
  version: string;
}

export interface StipendexProvider {
  readonly isStipendex: true;
  readonly version: string;
  /** The numbered codes of `ProviderRpcError.code`: UserRejected 4001, BudgetExceeded 4910, Locked 4900, InvalidQuote 4920, … */
  readonly errorCodes: Readonly<typeof ErrorCode>;
  /** Any wallet method by name, EIP-1193 style. */
  request: Requester;
  /**
   * Pays a price the page holds: a 402 body (`{ quote }` or x402 v1), an x402
   * PaymentRequired object, or a Quote's JSON form. Resolves with the header
   * to send (and the payment id to report the receipt under).
   */
  pay(
    paymentRequired: unknown,
    resource?: { url?: string; method?: string },
  ): Promise<PaymentAnswer>;
  /** `fetch` that pays 402s through the wallet (the page's `fetch` already does). */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** Shows an MCP elicitation carrying `_meta["stipendex/quote"]` in the wallet's window. */
  elicit(params: ElicitParams["params"], server?: string): Promise<ElicitResult>;
  /** Price hints the wallet has seen from an MCP server's tools/list. */
  getPricing(server: string): Promise<McpServerReport | null>;
}

/** The provider's name on the page's window. */
const PROVIDER_PROPERTY = "stipendex";

/**
 * Whether a hook is already at work in `win`: Firefox injects an updated or
 * reloaded extension's content scripts into the tabs already open, where the
 * previous hook stays (its window.stipendex cannot be replaced) and goes on
 * working with the new relay. A second would wrap fetch again and ask twice
 * for one price.
 */
export function hookInstalled(win: Window): boolean {
  return PROVIDER_PROPERTY in win;
}

const INFO: ProviderInfo = Object.freeze({
  name: "Stipendex Wallet",
  rdns: "dev.stipendex.wallet",
  version: PROVIDER_VERSION,
});

/**
 * Defines `window.stipendex` (frozen, not writable, not configurable) and
 * announces it, EIP-6963 style, now and whenever a page asks. Call after the
 * fetch hook so `provider.fetch` is the paying one.
 */
export function installProvider(
  win: Window & typeof globalThis,
  request: Requester,
  wallet: WalletLink,
): StipendexProvider {
  const payingFetch = win.fetch;
  const provider: StipendexProvider = Object.freeze({
    isStipendex: true as const,
    version: PROVIDER_VERSION,
    errorCodes: ErrorCode,
    request,
    pay: (paymentRequired: unknown, resource?: { url?: string; method?: string }) =>
      wallet.pay({
        transport: "http" as const,
        url: new URL(resource?.url ?? win.location.href, win.document.baseURI).href,
        method: (resource?.method ?? "GET").toUpperCase(),
        body: JSON.stringify(paymentRequired),
        paymentRequiredHeader: null,
      }),
    fetch: (input: RequestInfo | URL, init?: RequestInit) =>
      Reflect.apply(payingFetch, win, [input, init]),
    elicit: (params: ElicitParams["params"], server?: string) =>
      wallet.elicit({ server: server ?? win.location.origin, params }),
    getPricing: (server: string) => request({ method: "stipendex_getPricing", params: { server } }),
  });
  Object.defineProperty(win, PROVIDER_PROPERTY, {
    value: provider,
    writable: false,
    configurable: false,
    enumerable: true,
  });
  const announce = () =>
    win.dispatchEvent(
      new CustomEvent(ANNOUNCE_EVENT, { detail: Object.freeze({ info: INFO, provider }) }),
    );
  win.addEventListener(REQUEST_PROVIDER_EVENT, announce);
  announce();
  return provider;
}
