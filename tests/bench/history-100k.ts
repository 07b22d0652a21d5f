import type { Page } from "playwright-core";
import type { PaymentRecord } from "../../lib/db/schema";
import { WALLET_DB_NAME } from "../../lib/db/schema";
import { periodKey } from "../../lib/wallet/periods";
import type { BrowserBench, Ratio } from "./bench";
import { BENCH_PRICE, startBenchReceiver } from "./bench-receiver";
import { type SeedPlan, seedPlan } from "./seed-plan";
import { summarize } from "./stats";
import { openWalletBrowser } from "./wallet-browser";

const PAYMENTS = 100_000;
const DAYS = 90;
/** Records per IndexedDB transaction while seeding. */
const BATCH = 5_000;

interface Marks {
  rows?: number;
  month?: number;
  monthText?: string;
}
type MarkedWindow = Window & { benchMarks?: Marks };
interface UiCaller {
  chrome: {
    runtime: { sendMessage(message: unknown): Promise<{ ok: boolean; result?: unknown }> };
  };
}

/**
 * From an extension page: takes the one real payment the wallet recorded as the template,
 * replaces both stores with `count` settled copies at the plan's times and the plan's sums.
 * Raw IndexedDB on the database Dexie opened (lib/db/schema.ts); no named inner functions,
 * which tsx would wrap in a __name() the page does not have.
 */
function seedInPage(page: Page, plan: SeedPlan, name: string): Promise<number> {
  return page.evaluate(
    async ({ plan, name, batch }) => {
      const start = performance.now();
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const template = await new Promise<PaymentRecord | undefined>((resolve, reject) => {
        const request = db.transaction("payments").objectStore("payments").getAll();
        request.onsuccess = () => resolve((request.result as PaymentRecord[])[0]);
        request.onerror = () => reject(request.error);
      });
      if (!template) throw new Error("the wallet recorded no payment to copy");
      const micro = template.charge?.micro ?? template.amount;
      for (let from = 0; from < plan.createdAt.length; from += batch) {
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction(["payments", "budgetSums", "counters"], "readwrite");
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
          const payments = tx.objectStore("payments");
          const sums = tx.objectStore("budgetSums");
          if (from === 0) {
            payments.clear();
            sums.clear();
            // The wallet keeps the number of payments as a running count (schema v2).
            tx.objectStore("counters").put({ name: "payments", value: plan.createdAt.length });
            for (const row of plan.rows) sums.put(row);
          }
          const to = Math.min(from + batch, plan.createdAt.length);
          for (let i = from; i < to; i++) {
            const at = plan.createdAt[i] ?? 0;
            payments.put({
              ...template,
              id: `bench-${i}`,
              quoteId: `bench-quote-${i}`,
              createdAt: at,
              updatedAt: at,
              state: "settled",
              charge: { currency: "USD", micro, chargedAt: at },
            });
          }
        });
      }
      db.close();
      return performance.now() - start;
    },
    { plan, name, batch: BATCH },
  );
}

/** Notes, in the page's own clock from navigation start, when rows and the month total show. */
function watchRender(month: string) {
  const win = window as MarkedWindow;
  const marks: Marks = {};
  win.benchMarks = marks;
  new MutationObserver(() => {
    if (marks.rows === undefined && document.querySelector('ul[aria-label="Payments"] li button')) {
      marks.rows = performance.now();
    }
    // Switch "Totals per" to month as soon as it shows, as a person would.
    const select = [...document.querySelectorAll("select")].find((s) =>
      [...s.options].some((o) => o.value === "month"),
    );
    if (select && select.value !== "month") {
      select.value = "month";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }
    // The month is shown in the person's language; its <time> carries the key.
    const cell = document.querySelector(`td time[datetime="${month}"]`)?.closest("td");
    if (marks.month === undefined && cell) {
      marks.month = performance.now();
      marks.monthText = cell.nextElementSibling?.textContent ?? "";
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

async function renderOnce(page: Page, url: string): Promise<Required<Marks>> {
  await page.goto(url);
  const handle = await page.waitForFunction(
    () => {
      const marks = (window as MarkedWindow).benchMarks;
      return marks?.rows !== undefined && marks.month !== undefined ? marks : undefined;
    },
    undefined,
    { timeout: 120_000 },
  );
  return (await handle.jsonValue()) as Required<Marks>;
}

/** ui_listPayments(0, 100) and ui_getSpend, alternately, timed in the options page. */
function callsInPage(page: Page, rounds: number, origin: string) {
  return page.evaluate(
    async ({ rounds, origin }) => {
      const runtime = (globalThis as unknown as UiCaller).chrome.runtime;
      const list: number[] = [];
      const spend: number[] = [];
      let total = 0;
      let month = "";
      for (let i = 0; i < rounds; i++) {
        let start = performance.now();
        const listed = await runtime.sendMessage({
          channel: "ui",
          method: "ui_listPayments",
          params: { filter: {}, offset: 0, limit: 100 },
        });
        list.push(performance.now() - start);
        const page = listed.result as { rows: unknown[]; total: number } | undefined;
        if (!listed.ok || page?.rows.length !== 100) throw new Error(JSON.stringify(listed));
        total = page.total;
        start = performance.now();
        const spent = await runtime.sendMessage({
          channel: "ui",
          method: "ui_getSpend",
          params: { origin },
        });
        spend.push(performance.now() - start);
        if (!spent.ok) throw new Error(JSON.stringify(spent));
        month = (spent.result as { month: string }[])[0]?.month ?? "";
      }
      return { list, spend, total, month };
    },
    { rounds, origin },
  );
}

/** Raw IndexedDB count() of the payments store and of its createdAt index, `rounds` times each. */
function rawCountsInPage(page: Page, rounds: number, name: string) {
  return page.evaluate(
    async ({ rounds, name }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const times = { store: [] as number[], index: [] as number[] };
      for (let i = 0; i < rounds; i++) {
        for (const kind of ["store", "index"] as const) {
          const start = performance.now();
          await new Promise<number>((resolve, reject) => {
            const store = db.transaction("payments").objectStore("payments");
            const request = kind === "store" ? store.count() : store.index("createdAt").count();
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
          times[kind].push(performance.now() - start);
        }
      }
      db.close();
      return times;
    },
    { rounds, name },
  );
}

export const FIRST_ROWS = "options page: first rows shown";
export const MONTH_TOTAL = "options page: month total shown";

/** The history page and the spend calls over a wallet holding 100,000 payments. */
export const history100kBench: BrowserBench = {
  title: `History with ${PAYMENTS.toLocaleString("en")} payments in the wallet's IndexedDB`,
  async run({ quick }) {
    const renders = quick ? 2 : 5;
    const calls = quick ? 5 : 20;
    const receiver = await startBenchReceiver();
    const browser = await openWalletBrowser(receiver.origin).catch(async (error: unknown) => {
      await receiver.close();
      throw error;
    });
    try {
      const { context } = browser.session;
      const agent = await context.newPage();
      await agent.goto(`${receiver.origin}/`);
      const status = await agent.evaluate(async () => (await fetch("/paid?id=template")).status);
      if (status !== 200) throw new Error(`the template payment answered ${status}`);
      await agent.close();

      const now = Date.now();
      const plan = seedPlan({
        count: PAYMENTS,
        now,
        days: DAYS,
        origin: receiver.origin,
        currency: "USD",
        micro: BENCH_PRICE,
      });
      const page = await context.newPage();
      const url = browser.session.extensionUrl("options.html");
      await page.goto(url);
      const seedMs = await seedInPage(page, plan, WALLET_DB_NAME);
      const month = periodKey("month", now);
      await page.addInitScript(watchRender, month);
      const samples = { rows: [] as number[], month: [] as number[] };
      let shown = "";
      for (let i = 0; i < renders; i++) {
        const marks = await renderOnce(page, url);
        samples.rows.push(marks.rows);
        samples.month.push(marks.month);
        shown = marks.monthText;
      }
      const direct = await callsInPage(page, calls, receiver.origin);
      const counts = await rawCountsInPage(page, 3, WALLET_DB_NAME);
      const results = [
        { name: FIRST_ROWS, stats: summarize(samples.rows) },
        { name: MONTH_TOTAL, stats: summarize(samples.month) },
        { name: "ui_listPayments(offset 0, limit 100)", stats: summarize(direct.list) },
        { name: "ui_getSpend", stats: summarize(direct.spend) },
        { name: "raw IndexedDB: payments store count()", stats: summarize(counts.store) },
        { name: "raw IndexedDB: createdAt index count()", stats: summarize(counts.index) },
      ];
      const ratios: Ratio[] = [];
      return [
        {
          kind: "timings",
          title: `${renders} loads of options.html (page clock from navigation start), ${calls} calls each from it`,
          results,
          ratios,
          notes: [
            `seeded ${PAYMENTS.toLocaleString("en")} settled payments over ${DAYS} days and their running sums in ${(seedMs / 1000).toFixed(1)} s`,
            `wallet says: ${direct.total.toLocaleString("en")} payments, month ${month} spent ${direct.month} micro-USD (seeded ${plan.monthTotal}); page shows ${shown}`,
          ],
        },
      ];
    } finally {
      await Promise.allSettled([browser.close(), receiver.close()]);
    }
  },
};
