import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "puppeteer-core";
import { type FirefoxSession, launchFirefox } from "./support/firefox";
import {
  ANNOUNCEMENTS,
  announcements,
  assertFetchUnchanged,
  assertWalletMessages,
  earlyProbe,
  FOUNDATION_PAGE,
  fetchBehaviour,
  LOCKED_PROVIDER_PROBE,
  walletMessages,
} from "./support/foundation";
import { startServer, type TestServer } from "./support/server";

const TIMEOUT = { timeout: 90_000 };

describe("Foundation in Firefox", TIMEOUT, () => {
  let server: TestServer;
  let wallet: FirefoxSession | undefined;
  let plain: FirefoxSession | undefined;
  let page: Page;
  let plainPage: Page;

  before(async () => {
    server = await startServer();
    wallet = await launchFirefox({ withWallet: true });
    plain = await launchFirefox({ withWallet: false });
    page = await wallet.browser.newPage();
    plainPage = await plain.browser.newPage();
    await page.goto(server.url(FOUNDATION_PAGE));
    await plainPage.goto(server.url(FOUNDATION_PAGE));
  }, TIMEOUT);

  after(async () => {
    await Promise.allSettled([wallet?.close(), plain?.close(), server?.close()]);
  });

  it("defines a locked window.stipendex before the page's first inline script", async () => {
    assert.deepEqual(await earlyProbe(page), LOCKED_PROVIDER_PROBE);
    assert.deepEqual(await earlyProbe(plainPage), { type: "undefined" });
  });

  it("announces the provider when the page asks for it", async () => {
    assert.deepEqual(await announcements(page), ANNOUNCEMENTS);
    assert.deepEqual(await announcements(plainPage), []);
  });

  it("leaves the page's fetch exactly as it is without the wallet", async () => {
    const withWallet = await fetchBehaviour(page);
    const withoutWallet = await fetchBehaviour(plainPage);
    assertFetchUnchanged(withWallet, withoutWallet, server.origin);
  });

  it("relays page requests to the background and answers for the real origin only", async () => {
    assertWalletMessages(await walletMessages(page), server.origin);
  });

  it("renders the popup", async () => {
    assert.ok(wallet);
    const popup = await wallet.openExtensionPage("popup.html");
    const status = await popup.waitForSelector("[data-testid=wallet-status]", { timeout: 10_000 });
    const text = await status?.evaluate((element) => element.textContent);
    assert.match(text ?? "", /Wallet ready · version \d+\.\d+\.\d+/);
    await popup.close();
  });
});
