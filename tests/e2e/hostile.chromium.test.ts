import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { type Demo, startDemo } from "../../demo/server";
import { type ChromiumSession, launchChromium } from "./support/chromium";
import {
  assertAllRefused,
  fetchQuote,
  forgeQuote,
  HOSTILE_PAGE,
  httpChallenge,
  type QuoteJsonForm,
} from "./support/hostile";
import { assertNothingSigned, newRows, type PaymentRig, snapshot } from "./support/payments";
import { startServer, type TestServer } from "./support/server";
import { allowOrigin, callWallet, nextConfirmWindow, setUpWallet } from "./support/wallet-chromium";

const TIMEOUT = { timeout: 90_000 };

interface PayOutcome {
  ok: boolean;
  result?: { paymentId: string; header?: { name: string; value: string } };
  error?: { code: number; message: string; data?: { reason?: string } };
}

describe("A hostile page in Chromium", TIMEOUT, () => {
  let demo: Demo | undefined;
  let server: TestServer | undefined;
  let session: ChromiumSession | undefined;
  let walletPage: Page;
  let page: Page;
  let rig: PaymentRig;
  let hostileOrigin: string;
  let agentOrigin: string;
  let forged: QuoteJsonForm;
  let opened = 0;
  const searchUrl = (q: string) => `${demo?.urls.stipendex}/api/search?q=${q}`;
  const pay = (challenge: unknown, extra: object = {}) =>
    page.evaluate(
      ([c, e]) =>
        (
          window as unknown as { hostile: { pay(c: unknown, e: object): Promise<unknown> } }
        ).hostile.pay(c, e),
      [challenge, extra] as const,
    ) as Promise<PayOutcome>;

  before(async () => {
    demo = await startDemo();
    const real = await fetchQuote(searchUrl("forged"));
    server = await startServer({
      // A 402 whose Quote names the demo receiver but is signed by a key it never published.
      "/api/forged": (_req, res) => {
        res.writeHead(402, { "content-type": "application/json" });
        res.end(JSON.stringify({ quote: forged }));
      },
    });
    forged = await forgeQuote(real, server.url("/api/forged"));
    hostileOrigin = server.origin;
    agentOrigin = new URL(demo.urls.agent).origin;
    session = await launchChromium({ withWallet: true });
    const payer = demo.chain.accounts.payers[0];
    if (!payer) throw new Error("the demo chain has no payer");
    walletPage = await setUpWallet(session, payer.privateKey);
    // A trusted site with a generous auto-approve budget the hostile page will claim to be.
    await allowOrigin(walletPage, agentOrigin, { amount: "1000000", autoApproveUpTo: "1000000" });
    session.context.on("page", () => {
      opened++;
    });
    page = await session.context.newPage();
    await page.goto(server.url(HOSTILE_PAGE));
    await page.locator("body[data-ready=true]").waitFor();
    rig = {
      demo,
      agent: { evaluate: (e) => page.evaluate(e), click: () => Promise.resolve() },
      payer: payer.address,
      wallet: (request) => callWallet(walletPage, request),
      nextConfirmWindow: () => Promise.reject(new Error("not used")),
      confirmWindowsOpened: () => opened,
    };
  }, TIMEOUT);

  after(async () => {
    await Promise.allSettled([session?.close(), server?.close(), demo?.stop()]);
  });

  it("forged relay messages cannot approve a pending payment or reach any UI method", async () => {
    assert.ok(session);
    const before = await snapshot(rig, hostileOrigin);
    const confirm = nextConfirmWindow(session.context);
    const pending = pay(
      httpChallenge(searchUrl("pending"), await fetchQuote(searchUrl("pending"))),
    );
    const window = await confirm;
    const [approval] = await callWallet(walletPage, {
      method: "ui_listPending",
      params: undefined,
    });
    assert.ok(approval);
    assert.equal(approval.origin, hostileOrigin);
    assertAllRefused(
      (await page.evaluate(`hostile.forgeUiCalls(${JSON.stringify(approval.id)})`)) as Record<
        string,
        unknown
      >,
    );
    // Still waiting for the person: the forged decisions changed nothing.
    assert.deepEqual(
      (await callWallet(walletPage, { method: "ui_listPending", params: undefined })).map(
        (a) => a.id,
      ),
      [approval.id],
    );
    await window.getByRole("button", { name: "Decline", exact: true }).click();
    const outcome = await pending;
    assert.equal(outcome.ok, false);
    // The wallet answers every refusal as -32603 and names the reason in data.
    assert.equal(outcome.error?.data?.reason, "user-declined", JSON.stringify(outcome));
    await assertNothingSigned(rig, hostileOrigin, before, "declined");
  });

  it("an origin claimed in the payload is ignored: asked and recorded under the real origin", async () => {
    assert.ok(session);
    const before = await snapshot(rig, hostileOrigin);
    const agentSpend = () =>
      callWallet(walletPage, { method: "ui_getSpend", params: { origin: agentOrigin } }).then(
        (spend) => spend.map((s) => s.origin),
      );
    const agentBefore = await agentSpend();
    const quote = await fetchQuote(searchUrl("claimed"));
    const confirm = nextConfirmWindow(session.context);
    const paid = pay(httpChallenge(searchUrl("claimed"), quote), { origin: agentOrigin });
    // The claimed origin has an auto-approve budget: a window at all means the claim was ignored.
    const window = await confirm;
    assert.equal(await window.getByTestId("origin").textContent(), hostileOrigin);
    await window.getByRole("button", { name: "Approve", exact: true }).click();
    const outcome = await paid;
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    assert.equal(outcome.result?.header?.name, "Stipendex-Payment");
    const [row] = await newRows(rig, before, 1, "signed");
    assert.equal(row?.origin, hostileOrigin);
    assert.deepEqual(await agentSpend(), agentBefore, "nothing counted against the claimed origin");

    // The same Quote again, under a new request id: a replay, refused before anything is signed.
    const afterFirst = await snapshot(rig, hostileOrigin);
    const windows = opened;
    const replay = await pay(httpChallenge(searchUrl("claimed"), quote));
    assert.equal(replay.ok, false);
    assert.match(replay.error?.message ?? "", /Replayed quote/);
    assert.equal(opened, windows, "no confirmation window for a replay");
    await assertNothingSigned(rig, hostileOrigin, afterFirst);
  });

  it("a Quote signed by a key the receiver never published is refused, served or handed over", async () => {
    const before = await snapshot(rig, hostileOrigin);
    const windows = opened;
    const served = (await page.evaluate(`hostile.fetchPriced("/api/forged")`)) as {
      status: number;
      body: string;
    };
    assert.equal(served.status, 402);
    assert.deepEqual(JSON.parse(served.body), { quote: forged });
    const direct = await pay(httpChallenge(server?.url("/api/forged") ?? "", forged));
    assert.equal(direct.ok, false);
    assert.match(direct.error?.message ?? "", /signature does not verify/, JSON.stringify(direct));
    assert.equal(opened, windows, "no confirmation window for a forged Quote");
    await assertNothingSigned(rig, hostileOrigin, before);
  });

  it("cannot load the confirmation page nor reach the extension's messaging", async () => {
    assert.ok(session);
    const before = await snapshot(rig, hostileOrigin);
    const confirmUrl = session.extensionUrl("confirm.html");
    const popup = session.context.waitForEvent("page", { timeout: 10_000 });
    await page.evaluate(`hostile.openConfirm(${JSON.stringify(confirmUrl)})`);
    const openedPage = await popup;
    await openedPage.waitForLoadState().catch(() => undefined);
    for (const frame of [...page.frames(), ...openedPage.frames()]) {
      assert.notEqual(frame.url(), confirmUrl, "the confirmation page loaded for the page");
      assert.equal(await frame.getByRole("button", { name: "Approve" }).count(), 0);
    }
    assert.deepEqual(
      await page.evaluate(`hostile.runtimeAccess(${JSON.stringify(session.extensionId)})`),
      { available: false },
    );
    await openedPage.close();
    await assertNothingSigned(rig, hostileOrigin, before);
  });
});
