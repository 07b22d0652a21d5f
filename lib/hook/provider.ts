import {
  ANNOUNCE_EVENT,
  type PageMethods,
  type PageRequest,
  PROVIDER_VERSION,
  REQUEST_PROVIDER_EVENT,
} from "../messages";
import { createBridge } from "./bridge";

export interface ProviderInfo {
  name: string;
  rdns: string;
  version: string;
}

export interface StipendexProvider {
  readonly isStipendex: true;
  readonly version: string;
  request<M extends keyof PageMethods>(
    request: Extract<PageRequest, { method: M }>,
  ): Promise<PageMethods[M]["result"]>;
}

const INFO: ProviderInfo = Object.freeze({
  name: "Stipendex Wallet",
  rdns: "dev.stipendex.wallet",
  version: PROVIDER_VERSION,
});

/**
 * Defines `window.stipendex` (frozen, not writable, not configurable) and
 * announces it, EIP-6963 style, now and whenever a page asks.
 */
export function installProvider(win: Window & typeof globalThis): StipendexProvider {
  const request = createBridge(win);
  const provider: StipendexProvider = Object.freeze({
    isStipendex: true as const,
    version: PROVIDER_VERSION,
    request,
  });
  Object.defineProperty(win, "stipendex", {
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
