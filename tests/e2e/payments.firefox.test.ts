import { after, before, describe, it } from "node:test";
import type { ElementHandle, Page } from "puppeteer-core";
import { type Demo, startDemo } from "../../demo/server";
import { type FirefoxSession, launchFirefox } from "./support/firefox";
import {
  declineThroughWindow,
  PAID_PATHS,
  type PaymentRig,
  pathNamed,
  payAutoApproved,
  payFiveInParallel,
  payThroughWindow,
  type Tab,
} from "./support/payments";
import { allowOrigin, callWallet, nextConfirmWindow, setUpWallet } from "./support/wallet-firefox";

const TIMEOUT = { timeout: 90_000 };

function tab(page: Page): Tab {
  return {
    evaluate: (expression) => page.evaluate(expression),
    async click(name) {
      const button = await page.waitForFunction(
        (text) =>
          [...document.querySelectorAll("button")].find(
            (b) => b.textContent?.trim() === text && !b.disabled,
          ),
        { timeout: 10_000 },
        name,
      );
      await (button.asElement() as ElementHandle<Element> | null)?.click();
    },
  };
}

describe("Payments in Firefox", TIMEOUT, () => {
  let demo: Demo | undefined;
  let session: FirefoxSession | undefined;
  let walletPage: Page;
  let rig: PaymentRig;
  let origin: string;

  before(async () => {
    demo = await startDemo();
    session = await launchFirefox({ withWallet: true });
    const payer = demo.chain.accounts.payers[0];
    if (!payer) throw new Error("the demo chain has no payer");
    walletPage = await setUpWallet(session, payer.privateKey);
    const browser = session.browser;
    const agent = await browser.newPage();
    // BiDi reports new windows as about:blank only; every page opened after this one is a confirmation window.
    let opened = 0;
    browser.on("targetcreated", (target) => {
      if (target.type() === "page") opened++;
    });
    await agent.goto(demo.urls.agent);
    await agent.waitForSelector("body[data-ready=true]");
    origin = new URL(demo.urls.agent).origin;
    rig = {
      demo,
      agent: tab(agent),
      payer: payer.address,
      wallet: (request) => callWallet(walletPage, request),
      nextConfirmWindow: async () => tab(await nextConfirmWindow(browser)),
      confirmWindowsOpened: () => opened,
    };
  }, TIMEOUT);

  after(async () => {
    await Promise.allSettled([session?.close(), demo?.stop()]);
  });

  for (const path of PAID_PATHS) {
    it(`${path.name}: approved in the confirmation window, paid and settled`, () =>
      payThroughWindow(rig, origin, path));
  }

  for (const name of ["Stipendex HTTP", "MCP -32402 JSON", "x402 MCP"]) {
    it(`${name}: declined, the page gets the original price and nothing is signed`, () =>
      declineThroughWindow(rig, origin, pathNamed(name)));
  }

  it("five parallel paid calls queue in one window and each gets its own answer", () =>
    payFiveInParallel(rig, origin));

  describe("under a budget", () => {
    before(() => allowOrigin(walletPage, origin, { amount: "1000000", autoApproveUpTo: "20000" }));

    for (const path of PAID_PATHS.filter((p) => !p.elicits)) {
      it(`${path.name}: auto-approved, paid and settled`, () => payAutoApproved(rig, origin, path));
    }
  });
});
