import { setTimeout as sleep } from "node:timers/promises";
import { StipendexError } from "../../../lib/errors";
import type {
  PolicyView,
  UiMethod,
  UiMethods,
  UiRequest,
  WireError,
  WireResponse,
} from "../../../lib/messages";
import { testCurrency } from "../../../lib/wallet/test-money";
import { WaitTimeoutError, within } from "./wait";

/**
 * The browser-independent half of the wallet helpers: what is sent to the
 * background and how its answers are read, and the setup steps built on that.
 * wallet-chromium.ts and wallet-firefox.ts only say how to reach a wallet page.
 */

export class WalletCallError extends StipendexError {
  override name = "WalletCallError";

  constructor(method: string, error: WireError) {
    super("wallet-call-failed", `${method} failed with ${error.code}: ${error.message}`);
  }
}

/** One UI method called on the background, as the wallet's own pages do. */
export type WalletCall = <M extends UiMethod>(
  request: Extract<UiRequest, { method: M }>,
) => Promise<UiMethods[M]["result"]>;

/** Which global holds the extension API in a wallet page: Chromium's `chrome`, Firefox's `browser`. */
export type ExtensionNamespace = "chrome" | "browser";

/** What a driver hands sendFromWalletPage. */
export interface WalletPageMessage {
  namespace: ExtensionNamespace;
  message: unknown;
}

interface Runtime {
  runtime: { sendMessage(message: unknown): Promise<unknown> };
}

/**
 * Runs inside a wallet page (passed to the driver's evaluate): sends a UI
 * message through that page's extension runtime.
 */
export function sendFromWalletPage({ namespace, message }: WalletPageMessage): Promise<unknown> {
  return (globalThis as unknown as Record<ExtensionNamespace, Runtime>)[
    namespace
  ].runtime.sendMessage(message);
}

/** A UI call made from a wallet page of one browser driver's page type `P`. */
export type PageCall<P> = <M extends UiMethod>(
  page: P,
  request: Extract<UiRequest, { method: M }>,
) => Promise<UiMethods[M]["result"]>;

/**
 * callWallet for one browser driver: `send` evaluates sendFromWalletPage in
 * the page. Resolves with the result, or throws a WalletCallError naming the
 * method and the wire error.
 */
export function walletPageCaller<P>(
  namespace: ExtensionNamespace,
  send: (page: P, message: WalletPageMessage) => Promise<unknown>,
): PageCall<P> {
  return async <M extends UiMethod>(page: P, request: Extract<UiRequest, { method: M }>) => {
    const answer = (await send(page, {
      namespace,
      message: { channel: "ui", ...request },
    })) as WireResponse<UiMethods[M]["result"]>;
    if (!answer.ok) throw new WalletCallError(request.method, answer.error);
    return answer.result;
  };
}

export const DEFAULT_PASSWORD = "correct horse battery staple";

/**
 * Creates the wallet from `popup` (a wallet page, so it may call UI methods)
 * by importing `privateKey` (a funded demo payer); returns that page for
 * later calls.
 */
export async function setUpWalletIn<P>(
  popup: P,
  callWallet: PageCall<P>,
  privateKey: string,
  password = DEFAULT_PASSWORD,
): Promise<P> {
  await untilBackgroundAnswers(popup, callWallet);
  await within(
    callWallet(popup, {
      method: "ui_createWallet",
      params: { password, importPrivateKey: privateKey },
    }),
    "ui_createWallet to answer",
    BACKGROUND_ANSWER_MS,
  );
  return popup;
}

const BACKGROUND_ANSWER_MS = 20_000;

/**
 * Asks ui_status from `page` until the background answers. A wallet page
 * can be up before a freshly installed add-on's background has its
 * listener, and a message sent then is refused ("receiving end does not
 * exist") or never answered; the first real call waits for this instead.
 */
async function untilBackgroundAnswers<P>(page: P, callWallet: PageCall<P>): Promise<void> {
  const deadline = Date.now() + BACKGROUND_ANSWER_MS;
  for (;;) {
    const answered = await within(
      callWallet(page, { method: "ui_status", params: undefined }),
      "ui_status",
      1_000,
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (answered === undefined) return;
    if (Date.now() > deadline) {
      throw new WaitTimeoutError(
        `the wallet's background to answer (last: ${String(answered)})`,
        BACKGROUND_ANSWER_MS,
      );
    }
    await sleep(100);
  }
}

/**
 * Points the wallet at the demo chain for balances and settlements, as the
 * wallet `npm start` builds does, and switches the other networks off (their
 * public endpoints are out of reach in tests).
 */
export async function useDemoChain(
  call: WalletCall,
  chain: { chainId: number; rpcUrl: string },
): Promise<void> {
  const policy = await call({ method: "ui_getPolicy", params: undefined });
  const network = `eip155:${chain.chainId}`;
  await call({
    method: "ui_setPolicy",
    params: { ...policy, networks: [network], rpcEndpoints: { [network]: chain.rpcUrl } },
  });
}

/** Gives `origin` a daily budget that auto-approves payments up to `autoApproveUpTo` micro (test) USD. */
export async function grantOriginBudget(
  call: WalletCall,
  origin: string,
  budget: { amount: string; autoApproveUpTo: string },
): Promise<void> {
  const policy = await call({ method: "ui_getPolicy", params: undefined });
  await call({ method: "ui_setPolicy", params: withOriginBudget(policy, origin, budget) });
}

/** `policy` plus a daily budget for `origin`, in test USD: the demo chain is a testnet, so it pays in test money. */
export function withOriginBudget(
  policy: PolicyView,
  origin: string,
  budget: { amount: string; autoApproveUpTo: string },
): PolicyView {
  return {
    ...policy,
    origins: {
      ...policy.origins,
      [origin]: {
        currency: testCurrency("USD"),
        amount: budget.amount,
        period: "day",
        autoApproveUpTo: budget.autoApproveUpTo,
        perCallMax: budget.amount,
      },
    },
  };
}

/** Runs a browser's setup steps; if one fails, closes the browser before passing the failure on. */
export async function setUpOrClose<T>(
  session: { close(): Promise<void> },
  steps: () => Promise<T>,
): Promise<T> {
  try {
    return await steps();
  } catch (error) {
    await session.close();
    throw error;
  }
}

/** A browser with the wallet set up and the demo agent page open, each page wrapped by `wrap`. */
export interface AgentBrowser<T> {
  agent: T;
  wallet: WalletCall;
  nextConfirmWindow(): Promise<T>;
  confirmWindowsOpened(): number;
  close(): Promise<void>;
  /** The wallet page the setup used (extension APIs in reach), wrapped like the agent page. */
  walletTab: T;
  /** The next window showing one of the wallet's pages, e.g. "popup.html" (start before what opens it). */
  nextWalletWindow(path: string): Promise<T>;
}
