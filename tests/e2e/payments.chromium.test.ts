import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { type Demo, startDemo } from "../../demo/server";
import { type ChromiumSession, launchChromium } from "./support/chromium";
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
import { allowOrigin, callWallet, nextConfirmWindow, setUpWallet } from "./support/wallet-chromium";

const TIMEOUT = { timeout: 90_000 };

function tab(page: Page): Tab {
  return {
    evaluate: (expression) => page.evaluate(expression),
    click: (name) => page.getByRole("button", { name, exact: true }).click({ timeout: 10_000 }),
  };
}

describe("Payments in Chromium", TIMEOUT, () => {
  let demo: Demo | undefined;
  let session: ChromiumSession | undefined;
  let walletPage: Page;
  let rig: PaymentRig;
  let origin: string;

  before(async () => {
    demo = await startDemo();
    session = await launchChromium({ withWallet: true });
    const payer = demo.chain.accounts.payers[0];
    if (!payer) throw new Error("the demo chain has no payer");
    walletPage = await setUpWallet(session, payer.privateKey);
    let opened = 0;
    session.context.on("page", (page) => {
      if (page.url().endsWith("/confirm.html")) opened++;
    });
    const agent = await session.context.newPage();
    await agent.goto(demo.urls.agent);
    await agent.locator("body[data-ready=true]").waitFor();
    origin = new URL(demo.urls.agent).origin;
    const context = session.context;
    rig = {
      demo,
      agent: tab(agent),
      payer: payer.address,
      wallet: (request) => callWallet(walletPage, request),
      nextConfirmWindow: async () => tab(await nextConfirmWindow(context)),
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
