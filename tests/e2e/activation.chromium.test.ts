import { describeActivation } from "./support/activation";
import { launchChromium } from "./support/chromium";
import { chromiumInputTab } from "./support/tabs";
import { callWallet, nextConfirmWindow, setUpWallet } from "./support/wallet-chromium";
import { setUpOrClose } from "./support/wallet-setup";

describeActivation("Chromium", 90_000, { realWindowFocus: false }, async (demo, payerKey) => {
  const session = await launchChromium({ withWallet: true });
  return setUpOrClose(session, async () => {
    const walletPage = await setUpWallet(session, payerKey);
    let opened = 0;
    session.context.on("page", (page) => {
      if (page.url().endsWith("/confirm.html")) opened++;
    });
    const agent = await session.context.newPage();
    await agent.goto(demo.urls.agent);
    await agent.locator("body[data-ready=true]").waitFor();
    return {
      agent: chromiumInputTab(agent),
      wallet: (request) => callWallet(walletPage, request),
      nextConfirmWindow: async () => chromiumInputTab(await nextConfirmWindow(session.context)),
      confirmWindowsOpened: () => opened,
      close: () => session.close(),
    };
  });
});
