import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { launchFirefox } from "./firefox";
import { type ProxyPlaces, type ProxyWalletBrowser, runProxyCommand } from "./proxy";
import { firefoxTab } from "./tabs";
import { pollFor } from "./wait";
import { callWallet, nextConfirmWindow, setUpWallet } from "./wallet-firefox";
import { setUpOrClose } from "./wallet-setup";

/** The history tab's payment lines. */
const PAYMENT_LINES = '[aria-label="Payments"] li';

/**
 * A Firefox found in the places' home (its `.mozilla` directory), where
 * `stipendex-proxy install` puts the manifest (`.mozilla/native-messaging-hosts`),
 * then Firefox with the places' environment (so it reads that home, and the
 * native host it starts listens on the places' channel), the wallet set up
 * with `payerKey`.
 */
export async function openFirefoxProxyWallet(
  places: ProxyPlaces,
  payerKey: string,
): Promise<ProxyWalletBrowser> {
  mkdirSync(join(places.home, ".mozilla"), { recursive: true });
  await runProxyCommand(places, ["install"]);
  const session = await launchFirefox({ withWallet: true, env: places.env });
  return setUpOrClose(session, async () => {
    const walletPage = await setUpWallet(session, payerKey);
    const browser = session.browser;
    // BiDi reports new windows as about:blank only: every page opened from here on counts.
    let opened = 0;
    browser.on("targetcreated", (target) => {
      if (target.type() === "page") opened++;
    });
    return {
      agent: firefoxTab(walletPage),
      wallet: (request) => callWallet(walletPage, request),
      nextConfirmWindow: async () => firefoxTab(await nextConfirmWindow(browser)),
      confirmWindowsOpened: () => opened,
      historyLines: async (expected) => {
        const options = await session.openExtensionPage("options.html");
        try {
          const lines = () =>
            options.evaluate(
              (selector) =>
                [...document.querySelectorAll(selector)].map((li) => li.textContent ?? ""),
              PAYMENT_LINES,
            );
          return await pollFor(async () => {
            const shown = await lines();
            return shown.some((line) => line.includes(expected)) && shown;
          }, `a history line with ${expected}`);
        } finally {
          await options.close();
        }
      },
      close: () => session.close(),
    };
  });
}
