import { launchFirefox } from "./support/firefox";
import { describePayments } from "./support/payments";
import { firefoxTab } from "./support/tabs";
import { callWallet, nextConfirmWindow, setUpWallet } from "./support/wallet-firefox";
import { setUpOrClose } from "./support/wallet-setup";

describePayments("Firefox", 90_000, async (demo, payerKey) => {
  const session = await launchFirefox({ withWallet: true });
  return setUpOrClose(session, async () => {
    const walletPage = await setUpWallet(session, payerKey);
    const browser = session.browser;
    const agent = await browser.newPage();
    // BiDi reports new windows as about:blank only; every page opened after this one is a confirmation window.
    let opened = 0;
    browser.on("targetcreated", (target) => {
      if (target.type() === "page") opened++;
    });
    await agent.goto(demo.urls.agent);
    await agent.waitForSelector("body[data-ready=true]");
    return {
      agent: firefoxTab(agent),
      wallet: (request) => callWallet(walletPage, request),
      nextConfirmWindow: async () => firefoxTab(await nextConfirmWindow(browser)),
      confirmWindowsOpened: () => opened,
      close: () => session.close(),
    };
  });
});
