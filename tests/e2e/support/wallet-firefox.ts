import type { Browser, Page } from "puppeteer-core";
import { StipendexError } from "../../../lib/errors";
import type { FirefoxSession } from "./firefox";
import { sendFromWalletPage, setUpWalletIn, walletPageCaller } from "./wallet-setup";

export class ConfirmWindowPageError extends StipendexError {
  override name = "ConfirmWindowPageError";

  constructor(url: string) {
    super("confirm-window-without-page", `The confirmation window ${url} has no page to drive`);
  }
}

/** Calls the background from one of the wallet's own pages, as the UI does. */
export const callWallet = walletPageCaller<Page>("browser", (page, message) =>
  page.evaluate(sendFromWalletPage, message),
);

/** Opens the popup page in a tab and creates the wallet there (see setUpWalletIn). */
export async function setUpWallet(
  session: FirefoxSession,
  privateKey: string,
  password?: string,
): Promise<Page> {
  return setUpWalletIn(
    await session.openExtensionPage("popup.html"),
    callWallet,
    privateKey,
    password,
  );
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
