import { launchFirefox } from "./support/firefox";
import { describeFoundation, FIRST_RUN_BUTTON, FOUNDATION_PAGE } from "./support/foundation";

describeFoundation("Firefox", 90_000, async (server) => {
  const wallet = await launchFirefox({ withWallet: true });
  const plain = await launchFirefox({ withWallet: false }).catch(async (error: unknown) => {
    await wallet.close();
    throw error;
  });
  const page = await wallet.browser.newPage();
  const plainPage = await plain.browser.newPage();
  await page.goto(server.url(FOUNDATION_PAGE));
  await plainPage.goto(server.url(FOUNDATION_PAGE));
  return {
    page,
    plainPage,
    async popupButtonText() {
      const popup = await wallet.openExtensionPage("popup.html");
      const button = await popup.waitForSelector(`::-p-aria(${FIRST_RUN_BUTTON})`, {
        timeout: 10_000,
      });
      const text = (await button?.evaluate((element) => element.textContent)) ?? "";
      await popup.close();
      return text.trim();
    },
    close: async () => {
      await Promise.allSettled([wallet.close(), plain.close()]);
    },
  };
});
