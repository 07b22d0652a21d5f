import type { Browser, Page } from "puppeteer-core";
import { StipendexError } from "../../../lib/errors";
import type { UiMethod, UiMethods, UiRequest } from "../../../lib/messages";
import type { FirefoxSession } from "./firefox";
import {
  createWallet,
  DEFAULT_PASSWORD,
  sendFromWalletPage,
  uiMessage,
  walletAnswer,
} from "./wallet-setup";

export class ConfirmWindowPageError extends StipendexError {
  override name = "ConfirmWindowPageError";

  constructor(url: string) {
    super("confirm-window-without-page", `The confirmation window ${url} has no page to drive`);
  }
}

/** Calls the background from one of the wallet's own pages, as the UI does. */
export async function callWallet<M extends UiMethod>(
  page: Page,
  request: Extract<UiRequest, { method: M }>,
): Promise<UiMethods[M]["result"]> {
  return walletAnswer(
    request.method,
    await page.evaluate(sendFromWalletPage, uiMessage("browser", request)),
  );
}

/**
 * Opens the popup page in a tab (a wallet page, so it may call UI methods),
 * creates the wallet by importing `privateKey` (a funded demo payer), and
 * returns that page for later calls.
 */
export async function setUpWallet(
  session: FirefoxSession,
  privateKey: string,
  password = DEFAULT_PASSWORD,
): Promise<Page> {
  const page = await session.openExtensionPage("popup.html");
  await createWallet((request) => callWallet(page, request), privateKey, password);
  return page;
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
