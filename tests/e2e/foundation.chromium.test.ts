import assert from "node:assert/strict";
import { it } from "node:test";
import type { Page } from "playwright-core";
import { launchChromium, stopServiceWorkers } from "./support/chromium";
import {
  assertWalletMessages,
  describeFoundation,
  FIRST_RUN_BUTTON,
  FOUNDATION_PAGE,
  walletMessages,
} from "./support/foundation";

describeFoundation(
  "Chromium",
  60_000,
  async (server) => {
    const wallet = await launchChromium({ withWallet: true });
    const plain = await launchChromium({ withWallet: false }).catch(async (error: unknown) => {
      await wallet.close();
      throw error;
    });
    const page = await wallet.context.newPage();
    const plainPage = await plain.context.newPage();
    await page.goto(server.url(FOUNDATION_PAGE));
    await plainPage.goto(server.url(FOUNDATION_PAGE));
    return {
      page,
      plainPage,
      async popupButtonText() {
        const popup = await wallet.context.newPage();
        await popup.goto(wallet.extensionUrl("popup.html"));
        const button = popup.getByRole("button", { name: FIRST_RUN_BUTTON });
        await button.waitFor({ timeout: 10_000 });
        const text = (await button.textContent()) ?? "";
        await popup.close();
        return text.trim();
      },
      close: async () => {
        await Promise.allSettled([wallet.close(), plain.close()]);
      },
    };
  },
  (get) => {
    it("still answers after the service worker was stopped", async () => {
      const { browser, server } = get();
      const page = browser.page as Page;
      const [worker] = await stopServiceWorkers(page);
      assert.match(worker ?? "", /^chrome-extension:\/\/[a-p]{32}\/background\.js$/);
      assertWalletMessages(await walletMessages(page), server.origin);
    });
  },
);
