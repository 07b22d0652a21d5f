import type { BrowserContext, Page } from "playwright-core";
import { type ChromiumSession, launchChromium } from "./chromium";
import {
  type AgentBrowser,
  grantOriginBudget,
  sendFromWalletPage,
  setUpOrClose,
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

/** The next confirmation window (or `path` window) the wallet opens (start waiting before the click that causes it). */
export function nextConfirmWindow(context: BrowserContext, path = "confirm.html"): Promise<Page> {
  return context.waitForEvent("page", {
    predicate: (page) => page.url().endsWith(`/${path}`),
    timeout: 20_000,
  });
}

/** Chromium with the wallet set up (importing `payerKey`) and the agent page at `agentUrl` open. */
export async function openChromiumAgent<T>(
  agentUrl: string,
  payerKey: string,
  wrap: (page: Page) => T,
): Promise<AgentBrowser<T>> {
  const session = await launchChromium({ withWallet: true });
  return setUpOrClose(session, async () => {
    const walletPage = await setUpWallet(session, payerKey);
    let opened = 0;
    session.context.on("page", (page) => {
      if (page.url().endsWith("/confirm.html")) opened++;
    });
    const agent = await session.context.newPage();
    await agent.goto(agentUrl);
    await agent.locator("body[data-ready=true]").waitFor();
    return {
      agent: wrap(agent),
      wallet: (request) => callWallet(walletPage, request),
      nextConfirmWindow: async () => wrap(await nextConfirmWindow(session.context)),
      confirmWindowsOpened: () => opened,
      close: () => session.close(),
      walletTab: wrap(walletPage),
      nextWalletWindow: async (path) => wrap(await nextConfirmWindow(session.context, path)),
    };
  });
}
