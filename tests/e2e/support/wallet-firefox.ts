import type { Browser, Page } from "puppeteer-core";
import { StipendexError } from "../../../lib/errors";
import type { UiMethods, UiRequest, WireError, WireResponse } from "../../../lib/messages";
import type { FirefoxSession } from "./firefox";
import { withOriginBudget } from "./wallet-chromium";

export class WalletCallError extends StipendexError {
  override name = "WalletCallError";

  constructor(method: string, error: WireError) {
    super("wallet-call-failed", `${method} failed with ${error.code}: ${error.message}`);
  }
}

export class ConfirmWindowPageError extends StipendexError {
  override name = "ConfirmWindowPageError";

  constructor(url: string) {
    super("confirm-window-without-page", `The confirmation window ${url} has no page to drive`);
  }
}

/** Calls the background from one of the wallet's own pages, as the UI does. */
export async function callWallet<M extends keyof UiMethods>(
  page: Page,
  request: Extract<UiRequest, { method: M }>,
): Promise<UiMethods[M]["result"]> {
  const response = (await page.evaluate(
    (message) =>
      (
        globalThis as unknown as {
          browser: { runtime: { sendMessage(message: unknown): Promise<unknown> } };
        }
      ).browser.runtime.sendMessage(message),
    { channel: "ui", ...request },
  )) as WireResponse<UiMethods[M]["result"]>;
  if (!response.ok) throw new WalletCallError(request.method, response.error);
  return response.result;
}

/**
 * Opens the popup page in a tab (a wallet page, so it may call UI methods),
 * creates the wallet by importing `privateKey` (a funded demo payer), and
 * returns that page for later calls.
 */
export async function setUpWallet(
  session: FirefoxSession,
  privateKey: string,
  password = "correct horse battery staple",
): Promise<Page> {
  const page = await session.openExtensionPage("popup.html");
  await callWallet(page, {
    method: "ui_createWallet",
    params: { password, importPrivateKey: privateKey },
  });
  return page;
}

/** Gives `origin` a daily budget that auto-approves payments up to `autoApproveUpTo` micro-USD. */
export async function allowOrigin(
  walletPage: Page,
  origin: string,
  budget: { amount: string; autoApproveUpTo: string },
): Promise<void> {
  const policy = await callWallet(walletPage, { method: "ui_getPolicy", params: undefined });
  await callWallet(walletPage, {
    method: "ui_setPolicy",
    params: withOriginBudget(policy, origin, budget),
  });
}

/**
 * The next confirmation window the wallet opens (start waiting before the
 * click that causes it). Over BiDi the new browsing context is reported as
 * about:blank and its moz-extension:// navigation is never reported, so this
 * takes the next new page and waits inside it for confirm.html to load.
 */
export async function nextConfirmWindow(browser: Browser): Promise<Page> {
  const known = new Set(browser.targets());
  const target = await browser.waitForTarget((t) => t.type() === "page" && !known.has(t), {
    timeout: 20_000,
  });
  const page = await target.page();
  if (!page) throw new ConfirmWindowPageError(target.url());
  await page.waitForFunction(
    () => location.pathname.endsWith("/confirm.html") && document.readyState === "complete",
    { timeout: 10_000 },
  );
  return page;
}
