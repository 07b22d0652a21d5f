import type { BrowserContext, Page } from "playwright-core";
import type { PolicyView, UiMethods, UiRequest, WireResponse } from "../../../lib/messages";
import type { ChromiumSession } from "./chromium";

/** Calls the background from one of the wallet's own pages, as the UI does. */
export async function callWallet<M extends keyof UiMethods>(
  page: Page,
  request: Extract<UiRequest, { method: M }>,
): Promise<UiMethods[M]["result"]> {
  const response = (await page.evaluate(
    (message) =>
      (
        globalThis as unknown as {
          chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } };
        }
      ).chrome.runtime.sendMessage(message),
    { channel: "ui", ...request },
  )) as WireResponse<UiMethods[M]["result"]>;
  if (!response.ok) throw new Error(`${request.method}: ${response.error.message}`);
  return response.result;
}

/**
 * Opens the popup page in a tab (a wallet page, so it may call UI methods),
 * creates the wallet by importing `privateKey` (a funded demo payer), and
 * returns that page for later calls.
 */
export async function setUpWallet(
  session: ChromiumSession,
  privateKey: string,
  password = "correct horse battery staple",
): Promise<Page> {
  const page = await session.context.newPage();
  await page.goto(session.extensionUrl("popup.html"));
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

/** `policy` plus a daily USD budget for `origin` (shared with the Firefox helpers). */
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
        currency: "USD",
        amount: budget.amount,
        period: "day",
        autoApproveUpTo: budget.autoApproveUpTo,
        perCallMax: budget.amount,
      },
    },
  };
}

/** The next confirmation window the wallet opens (start waiting before the click that causes it). */
export function nextConfirmWindow(context: BrowserContext): Promise<Page> {
  return context.waitForEvent("page", {
    predicate: (page) => page.url().endsWith("/confirm.html"),
    timeout: 20_000,
  });
}
