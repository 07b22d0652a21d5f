import type { BrowserContext, Page } from "playwright-core";
import type { UiMethod, UiMethods, UiRequest } from "../../../lib/messages";
import type { ChromiumSession } from "./chromium";
import {
  createWallet,
  DEFAULT_PASSWORD,
  grantOriginBudget,
  sendFromWalletPage,
  uiMessage,
  walletAnswer,
} from "./wallet-setup";

export { withOriginBudget } from "./wallet-setup";

/** Calls the background from one of the wallet's own pages, as the UI does. */
export async function callWallet<M extends UiMethod>(
  page: Page,
  request: Extract<UiRequest, { method: M }>,
): Promise<UiMethods[M]["result"]> {
  return walletAnswer(
    request.method,
    await page.evaluate(sendFromWalletPage, uiMessage("chrome", request)),
  );
}

/**
 * Opens the popup page in a tab (a wallet page, so it may call UI methods),
 * creates the wallet by importing `privateKey` (a funded demo payer), and
 * returns that page for later calls.
 */
export async function setUpWallet(
  session: ChromiumSession,
  privateKey: string,
  password = DEFAULT_PASSWORD,
): Promise<Page> {
  const page = await session.context.newPage();
  await page.goto(session.extensionUrl("popup.html"));
  await createWallet((request) => callWallet(page, request), privateKey, password);
  return page;
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
