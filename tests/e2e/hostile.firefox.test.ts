import assert from "node:assert/strict";
import { launchFirefox } from "./support/firefox";
import { describeHostile } from "./support/hostile";
import { firefoxFrames, firefoxTab } from "./support/tabs";
import { callWallet, nextConfirmWindow, setUpWallet } from "./support/wallet-firefox";
import { setUpOrClose } from "./support/wallet-setup";

describeHostile("Firefox", 180_000, async (hostileUrl, payerKey) => {
  const session = await launchFirefox({ withWallet: true });
  return setUpOrClose(session, async () => {
    const { browser, extensionId } = session;
    assert.ok(extensionId);
    const walletPage = await setUpWallet(session, payerKey);
    const page = await browser.newPage();
    let opened = 0;
    browser.on("targetcreated", (target) => {
      if (target.type() === "page") opened++;
    });
    await page.goto(hostileUrl);
    await page.waitForSelector("body[data-ready=true]");
    return {
      page: { ...firefoxTab(page), ...firefoxFrames(page) },
      inFrame: async (urlEnd, expression) => {
        const frame = page.frames().find((f) => f.url().endsWith(urlEnd));
        assert.ok(frame, `no frame at ${urlEnd}`);
        return frame.evaluate(expression);
      },
      wallet: (request) => callWallet(walletPage, request),
      extensionId,
      extensionUrl: session.extensionUrl,
      openTab: async (url) => {
        const tab = await browser.newPage();
        await tab.goto(url);
        await tab.waitForSelector("body[data-ready=true]");
        return firefoxTab(tab);
      },
      nextConfirmWindow: async () => firefoxTab(await nextConfirmWindow(browser)),
      async nextPage() {
        const known = new Set(browser.targets());
        const target = await browser.waitForTarget((t) => t.type() === "page" && !known.has(t), {
          timeout: 10_000,
        });
        const next = await target.page();
        assert.ok(next, `no page for the new window ${target.url()}`);
        return firefoxFrames(next);
      },
      windowsOpened: () => opened,
      close: () => session.close(),
    };
  });
});
