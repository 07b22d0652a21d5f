import type { Browser, Page } from "puppeteer-core";
import { StipendexError } from "../../../lib/errors";
import { type FirefoxSession, launchFirefox, untilPage } from "./firefox";
import {
  type AgentBrowser,
  sendFromWalletPage,
  setUpOrClose,
  setUpWalletIn,
  walletPageCaller,
} from "./wallet-setup";

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
export async function nextConfirmWindow(browser: Browser, path = "confirm.html"): Promise<Page> {
  const known = new Set(browser.targets());
  const target = await browser.waitForTarget((t) => t.type() === "page" && !known.has(t), {
    timeout: 20_000,
  });
  const page = await target.page();
  if (!page) throw new ConfirmWindowPageError(target.url());
  await untilPage(
    page,
    (name) => location.pathname.endsWith(`/${name}`) && document.readyState === "complete",
    path,
    `the ${path} window to load`,
  );
  return page;
}

/** Firefox with the wallet set up (importing `payerKey`) and the agent page at `agentUrl` open. */
export async function openFirefoxAgent<T>(
  agentUrl: string,
  payerKey: string,
  wrap: (page: Page) => T,
): Promise<AgentBrowser<T>> {
  const session = await launchFirefox({ withWallet: true });
  return setUpOrClose(session, async () => {
    const walletPage = await setUpWallet(session, payerKey);
    const browser = session.browser;
    const agent = await browser.newPage();
    // BiDi reports new windows as about:blank only; every page opened after this one is a confirmation window.
    let opened = 0;
    browser.on("targetcreated", (target) => {
      if (target.type() === "page") opened++;
    });
    await agent.goto(agentUrl);
    await agent.waitForSelector("body[data-ready=true]");
    return {
      agent: wrap(agent),
      wallet: (request) => callWallet(walletPage, request),
      nextConfirmWindow: async () => wrap(await nextConfirmWindow(browser)),
      confirmWindowsOpened: () => opened,
      close: () => session.close(),
      walletTab: wrap(walletPage),
      nextWalletWindow: async (path) => wrap(await nextConfirmWindow(browser, path)),
    };
  });
}
