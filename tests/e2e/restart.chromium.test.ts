import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { type Demo, HTTP_PRICES } from "../../demo/server";
import type { PaymentDetail } from "../../lib/messages";
import { type ChromiumSession, launchChromium, stopServiceWorkers } from "./support/chromium";
import { type HeldDemo, type HeldReceiver, startHeldDemo } from "./support/restart-held-receiver";
import { allowOrigin, callWallet, nextConfirmWindow, setUpWallet } from "./support/wallet-chromium";
import { useDemoChain } from "./support/wallet-setup";

const TIMEOUT = { timeout: 90_000 };
const PRICE = HTTP_PRICES.stipendex;

interface PaidFetch {
  status: number;
  receipt: string | null;
}

/** Starts a paid fetch in the page (through the wallet's hook) without waiting for it. */
function startPaidFetch(page: Page, name: string): Promise<void> {
  return page.evaluate((key) => {
    const scope = globalThis as unknown as { paid?: Record<string, unknown> };
    scope.paid = scope.paid ?? {};
    scope.paid[key] = fetch(`/api/search?q=${key}`).then((r) => ({
      status: r.status,
      receipt: r.headers.get("stipendex-receipt"),
    }));
  }, name);
}

function paidFetchResult(page: Page, name: string): Promise<PaidFetch> {
  return page.evaluate(
    (key) => (globalThis as unknown as { paid: Record<string, Promise<PaidFetch>> }).paid[key],
    name,
  ) as Promise<PaidFetch>;
}

describe("Wallet core in Chromium: the worker stopped mid-payment", TIMEOUT, () => {
  let rig: HeldDemo | undefined;
  let demo: Demo;
  let held: HeldReceiver;
  let browser: ChromiumSession | undefined;
  let wallet: Page;
  let page: Page;

  before(async () => {
    rig = await startHeldDemo();
    ({ demo, held } = rig);
    browser = await launchChromium({ withWallet: true });
    wallet = await setUpWallet(browser, rig.payer.privateKey);
    // The chain the demo settles on: a Receipt's settlement is checked there.
    await useDemoChain((request) => callWallet(wallet, request), demo.chain);
    page = await browser.context.newPage();
    await page.goto(`${held.origin}/`);
  }, TIMEOUT);

  after(async () => {
    await browser?.close();
    await rig?.stop();
  });

  const paymentsHere = async () =>
    (
      await callWallet(wallet, {
        method: "ui_listPayments",
        params: { filter: { origin: held.origin }, offset: 0, limit: 50 },
      })
    ).rows;
  const detail = (id: string): Promise<PaymentDetail> =>
    callWallet(wallet, { method: "ui_getPayment", params: { id } });
  const claimsOf = (payment: PaymentDetail, kind: "quote" | "proof") =>
    payment.objects.find((o) => o.kind === kind);
  const transfersFromPayer = (fromBlock: bigint) =>
    rig?.transfersFromPayer(fromBlock) ?? assert.fail("no demo");
  const settledRow = async (id: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const row = (await paymentsHere()).find((r) => r.id === id);
      if (row?.state === "settled" || Date.now() > deadline) return row;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  it("completes an approval clicked after the worker stopped, paying exactly once", async () => {
    const payeeBefore = await demo.chain.balanceOf(demo.rail.payTo);
    const block = await demo.chain.publicClient.getBlockNumber();
    const confirm = nextConfirmWindow(browser?.context ?? assert.fail("no browser"));
    await startPaidFetch(page, "approval");
    const window = await confirm;
    await window.getByRole("button", { name: "Approve" }).waitFor();

    const stopped = await stopServiceWorkers(page);
    assert.ok(
      stopped.some((url) => url.endsWith("/background.js")),
      `stopped ${stopped}`,
    );
    await window.getByRole("button", { name: "Approve" }).click();

    const result = await paidFetchResult(page, "approval");
    assert.equal(result.status, 200);
    assert.ok(result.receipt, "the paid response carries a Receipt");
    const rows = await paymentsHere();
    assert.equal(rows.length, 1, JSON.stringify(rows));
    const row = await settledRow(rows[0]?.id ?? "");
    assert.equal(row?.state, "settled");
    assert.equal(row?.amount.atomic, PRICE.toString());
    assert.equal((await demo.chain.balanceOf(demo.rail.payTo)) - payeeBefore, PRICE);
    assert.equal((await transfersFromPayer(block + 1n)).length, 1);
    assert.equal(held.paidCount(), 1);
  });

  it("resumes a payment signed just before the worker stopped, without signing it again", async () => {
    await allowOrigin(wallet, held.origin, { amount: "1000000", autoApproveUpTo: "100000" });
    const payeeBefore = await demo.chain.balanceOf(demo.rail.payTo);
    const block = await demo.chain.publicClient.getBlockNumber();
    held.holding = true;
    const arrival = held.nextPaid();
    await startPaidFetch(page, "signed");
    const paid = await arrival;

    await stopServiceWorkers(page);
    const newRows = (await paymentsHere()).filter((r) => r.state !== "settled");
    assert.equal(newRows.length, 1, JSON.stringify(newRows));
    const id = newRows[0]?.id ?? "";
    assert.equal(newRows[0]?.state, "signed");
    const signed = await detail(id);
    assert.equal(claimsOf(signed, "proof")?.compact, paid.proof);

    held.holding = false;
    paid.release();
    const result = await paidFetchResult(page, "signed");
    assert.equal(result.status, 200);
    const row = await settledRow(id);
    assert.equal(row?.state, "settled");
    const settled = await detail(id);
    assert.equal(claimsOf(settled, "proof")?.compact, paid.proof, "the Proof is unchanged");
    const quoteId = claimsOf(settled, "quote")?.claims.jti;
    assert.ok(typeof quoteId === "string");
    const forQuote = await Promise.all((await paymentsHere()).map((r) => detail(r.id)));
    assert.equal(
      forQuote.filter((p) => claimsOf(p, "quote")?.claims.jti === quoteId).length,
      1,
      "one payment record for the Quote",
    );
    assert.equal(held.paidCount(), 2, "one paid retry per payment, none re-sent");
    assert.equal((await demo.chain.balanceOf(demo.rail.payTo)) - payeeBefore, PRICE);
    assert.equal((await transfersFromPayer(block + 1n)).length, 1);
  });
});
