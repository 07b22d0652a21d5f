import { launchChromium } from "./chromium";
import { type ProxyPlaces, type ProxyWalletBrowser, runProxyCommand } from "./proxy";
import { chromiumTab } from "./tabs";
import { callWallet, nextConfirmWindow, setUpWallet } from "./wallet-chromium";
import { setUpOrClose } from "./wallet-setup";

/**
 * `stipendex-proxy install --browser-dir` into a fresh Chromium profile, then
 * Chromium in that profile with the places' environment (so the native host
 * the wallet starts listens on the places' channel), the wallet set up with
 * `payerKey`.
 */
export async function openChromiumProxyWallet(
  places: ProxyPlaces,
  payerKey: string,
): Promise<ProxyWalletBrowser> {
  await runProxyCommand(places, ["install", "--browser-dir", places.profile]);
  const session = await launchChromium({
    withWallet: true,
    userDataDir: places.profile,
    env: places.env,
  });
  return setUpOrClose(session, async () => {
    const walletPage = await setUpWallet(session, payerKey);
    let opened = 0;
    session.context.on("page", (page) => {
      if (page.url().endsWith("/confirm.html")) opened++;
    });
    return {
      agent: chromiumTab(walletPage),
      wallet: (request) => callWallet(walletPage, request),
      nextConfirmWindow: async () => chromiumTab(await nextConfirmWindow(session.context)),
      confirmWindowsOpened: () => opened,
      historyLines: async (expected) => {
        const options = await session.context.newPage();
        try {
          await options.goto(session.extensionUrl("options.html"));
          await options.getByRole("tab", { name: "History" }).click();
          const lines = options.getByRole("list", { name: "Payments" }).getByRole("listitem");
          await lines.getByText(expected).first().waitFor({ timeout: 10_000 });
          return await lines.allInnerTexts();
        } finally {
          await options.close();
        }
      },
      close: () => session.close(),
    };
  });
}
