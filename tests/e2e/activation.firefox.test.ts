import { describeActivation } from "./support/activation";
import { launchFirefox } from "./support/firefox";
import { firefoxInputTab } from "./support/tabs";
import { callWallet, nextConfirmWindow, setUpWallet } from "./support/wallet-firefox";
import { setUpOrClose } from "./support/wallet-setup";

describeActivation("Firefox", 90_000, { realWindowFocus: true }, async (demo, payerKey) => {
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
      agent: firefoxInputTab(agent),
      wallet: (request) => callWallet(walletPage, request),
      nextConfirmWindow: async () => firefoxInputTab(await nextConfirmWindow(browser)),
      confirmWindowsOpened: () => opened,
      close: () => session.close(),
    };
  });
});
