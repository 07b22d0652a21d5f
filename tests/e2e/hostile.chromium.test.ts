import assert from "node:assert/strict";
import { launchChromium } from "./support/chromium";
import { describeHostile } from "./support/hostile";
import { chromiumFrames, chromiumTab } from "./support/tabs";
import { callWallet, nextConfirmWindow, setUpWallet } from "./support/wallet-chromium";
import { setUpOrClose } from "./support/wallet-setup";

describeHostile("Chromium", 180_000, async (hostileUrl, payerKey) => {
  const session = await launchChromium({ withWallet: true });
  return setUpOrClose(session, async () => {
    const { context, extensionId } = session;
    assert.ok(extensionId);
    const walletPage = await setUpWallet(session, payerKey);
    let opened = 0;
    context.on("page", () => {
      opened++;
    });
    const page = await context.newPage();
    await page.goto(hostileUrl);
    await page.locator("body[data-ready=true]").waitFor();
    return {
      page: { ...chromiumTab(page), ...chromiumFrames(page) },
      inFrame: async (urlEnd, expression) => {
        const frame = page.frames().find((f) => f.url().endsWith(urlEnd));
        assert.ok(frame, `no frame at ${urlEnd}`);
        return frame.evaluate(expression);
      },
      wallet: (request) => callWallet(walletPage, request),
      extensionId,
      extensionUrl: session.extensionUrl,
      openTab: async (url) => {
        const tab = await context.newPage();
        await tab.goto(url);
        await tab.locator("body[data-ready=true]").waitFor();
        return chromiumTab(tab);
      },
      nextConfirmWindow: async () => chromiumTab(await nextConfirmWindow(context)),
      async nextPage() {
        const next = await context.waitForEvent("page", { timeout: 10_000 });
        await next.waitForLoadState().catch(() => undefined);
        return chromiumFrames(next);
      },
      windowsOpened: () => opened,
      close: () => session.close(),
    };
  });
});
