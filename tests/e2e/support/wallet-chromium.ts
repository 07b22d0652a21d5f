import type { BrowserContext, Page } from "playwright-core";
import type { ChromiumSession } from "./chromium";
import {
  grantOriginBudget,
  sendFromWalletPage,
  setUpWalletIn,
  walletPageCaller,
} from "./wallet-setup";

export { withOriginBudget } from "./wallet-setup";

/** Calls the background from one of the wallet's own pages, as the UI does. */
export const callWallet = walletPageCaller<Page>("chrome", (page, message) =>
  page.evaluate(sendFromWalletPage, message),
);

/** Opens the popup page in a tab and creates the wallet there (see setUpWalletIn). */
export async function setUpWallet(
  session: ChromiumSession,
  privateKey: string,
  password?: string,
): Promise<Page> {
  const page = await session.context.newPage();
  await page.goto(session.extensionUrl("popup.html"));
  return setUpWalletIn(page, callWallet, privateKey, password);
}

/** Gives `origin` a daily budget that auto-approves payments up to `autoApproveUpTo` micro-USD. */
export function allowOrigin(
  walletPage: Page,
  origin: string,
  budget: { amount: string; autoApproveUpTo: string },
): Promise<void> {
  return grantOriginBudget((request) => callWallet(walletPage, request), origin, budget);
}

/** The next confirmation window the wallet opens (start waiting before the click that causes it). */
export function nextConfirmWindow(context: BrowserContext): Promise<Page> {
  return context.waitForEvent("page", {
    predicate: (page) => page.url().endsWith("/confirm.html"),
    timeout: 20_000,
  });
}
