import { readFileSync } from "node:fs";
import { type Browser, launch, type Page } from "puppeteer-core";
import { StipendexError } from "../../../lib/errors";
import { builtExtension } from "./builds";
import { extensionPageUrl } from "./extension-url";
import { WaitTimeoutError, within } from "./wait";

export const FIREFOX_PATH = "/usr/bin/firefox-esr";
/** Pinned so extension page URLs are known before the add-on is installed. */
export const WALLET_UUID = "5f0c6b1e-8d2a-4c3b-9e7f-1a2b3c4d5e6f";

export class MissingGeckoIdError extends StipendexError {
  override name = "MissingGeckoIdError";

  constructor(dir: string) {
    super("missing-gecko-id", `${dir}/manifest.json has no browser_specific_settings.gecko.id`);
  }
}

export interface FirefoxSession {
  browser: Browser;
  /** The wallet's add-on id; undefined when launched without the wallet. */
  extensionId: string | undefined;
  /** moz-extension://UUID/<path>; throws when launched without the wallet. */
  extensionUrl(path: string): string;
  /** Opens one of the wallet's own pages in a new tab. */
  openExtensionPage(path: string): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Starts headless Firefox ESR over WebDriver BiDi with a fresh profile, with
 * the built wallet installed as a temporary add-on (`withWallet: true`) or
 * without it.
 */
export async function launchFirefox({
  withWallet,
}: {
  withWallet: boolean;
}): Promise<FirefoxSession> {
  const dir = withWallet ? builtExtension("firefox-mv3") : undefined;
  const uuids = dir ? { [geckoId(dir)]: WALLET_UUID } : {};
  const browser = await launch({
    browser: "firefox",
    executablePath: FIREFOX_PATH,
    headless: true,
    // Lets the test navigate tabs to moz-extension:// pages.
    args: ["--remote-allow-system-access"],
    extraPrefsFirefox: {
      "extensions.webextensions.uuids": JSON.stringify(uuids),
    },
  });
  try {
    const extensionId = dir
      ? await within(browser.installExtension(dir), "the wallet add-on to install", 30_000)
      : undefined;
    const extensionUrl = (path: string) =>
      extensionPageUrl(extensionId && `moz-extension://${WALLET_UUID}/`, path);
    return {
      browser,
      extensionId,
      extensionUrl,
      async openExtensionPage(path) {
        const url = extensionUrl(path);
        const page = await browser.newPage();
        // Awaiting this navigation never settles for moz-extension:// URLs; wait for the URL instead.
        page.goto(url).catch(() => undefined);
        await untilReady(page, (expected) => location.href === expected, url, `${url} to load`);
        return page;
      },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/**
 * Asks `page` until `ready` holds there. Over BiDi a wait that spans a change
 * of document fails outright (puppeteer's waitForFunction gives up with
 * "Waiting failed"), and a moz-extension:// navigation is not reported:
 * each try is a fresh evaluate, and one that meets no document counts as "not yet".
 */
export async function untilReady(
  page: Page,
  ready: (arg: string) => boolean,
  arg: string,
  what: string,
): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await page.evaluate(ready, arg).catch(() => false))) {
    if (Date.now() > deadline) throw new WaitTimeoutError(what, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function geckoId(dir: string): string {
  const manifest = JSON.parse(readFileSync(`${dir}/manifest.json`, "utf8")) as {
    browser_specific_settings?: { gecko?: { id?: string } };
  };
  const id = manifest.browser_specific_settings?.gecko?.id;
  if (!id) throw new MissingGeckoIdError(dir);
  return id;
}
