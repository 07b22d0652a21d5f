import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "puppeteer-core";
import { type Demo, HTTP_PRICES } from "../../demo/server";
import { type FirefoxSession, launchFirefox } from "./support/firefox";
import { type HeldDemo, type HeldReceiver, startHeldDemo } from "./support/restart-held-receiver";
import { firefoxTab } from "./support/tabs";
import { pollFor } from "./support/wait";
import { callWallet, nextConfirmWindow, setUpWallet } from "./support/wallet-firefox";
import { DEFAULT_PASSWORD, useDemoChain } from "./support/wallet-setup";

const TIMEOUT = { timeout: 120_000 };
const PRICE = HTTP_PRICES.stipendex;

describe("Wallet core in Firefox: the add-on updated mid-payment", TIMEOUT, () => {
  let rig: HeldDemo | undefined;
  let demo: Demo;
  let held: HeldReceiver;
  let session: FirefoxSession | undefined;
  let page: Page;

  before(async () => {
    rig = await startHeldDemo();
    ({ demo, held } = rig);
    session = await launchFirefox({ withWallet: true });
    const wallet = await setUpWallet(session, rig.payer.privateKey);
    await useDemoChain((request) => callWallet(wallet, request), demo.chain);
    page = await session.browser.newPage();
    await page.goto(`${held.origin}/`);
  }, TIMEOUT);

  after(async () => {
    await session?.close();
    await rig?.stop();
  });

  // Black-box review: Firefox hands the open tabs the updated add-on's scripts, and the old
  // relay is gone with every request it carried: the page's fetch waited for minutes.
  it("asks again about a payment the person had not decided when the add-on reloaded, and pays it once", async () => {
    const browser = session?.browser ?? assert.fail("no browser");
    const block = await demo.chain.publicClient.getBlockNumber();
    const payeeBefore = await demo.chain.balanceOf(demo.rail.payTo);
    const first = nextConfirmWindow(browser);
    await page.evaluate(() => {
      const scope = globalThis as unknown as { paid?: Promise<number> };
      scope.paid = fetch("/api/search?q=updated").then((r) => r.status);
    });
    const before = await first;
    await firefoxTab(before).text("resource");

    const asked = nextConfirmWindow(browser);
    await before.evaluate(() =>
      (
        globalThis as unknown as { browser: { runtime: { reload(): void } } }
      ).browser.runtime.reload(),
    );
    const window = await asked;
    // An update empties storage.session: the wallet is locked again, and unlocked here.
    await callWallet(window, { method: "ui_unlock", params: { password: DEFAULT_PASSWORD } });
    await window.bringToFront();
    await firefoxTab(window).click("Approve");

    const status = await page.evaluate(
      () => (globalThis as unknown as { paid: Promise<number> }).paid,
    );
    assert.equal(status, 200);
    assert.equal(held.paidCount(), 1);
    const wallet = await (session ?? assert.fail("no browser")).openExtensionPage("popup.html");
    const rows = await pollFor(
      async () => {
        const { rows } = await callWallet(wallet, {
          method: "ui_listPayments",
          params: { filter: { origin: held.origin }, offset: 0, limit: 50 },
        });
        return rows.length > 0 && rows.every((row) => row.state === "settled") ? rows : undefined;
      },
      "the payment to read settled",
      15_000,
    );
    assert.equal(rows.length, 1, JSON.stringify(rows));
    assert.equal(rows[0]?.amount.atomic, PRICE.toString());
    assert.equal((await demo.chain.balanceOf(demo.rail.payTo)) - payeeBefore, PRICE);
    assert.equal((await rig?.transfersFromPayer(block + 1n))?.length, 1);
  });
});
