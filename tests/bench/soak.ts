import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callWallet } from "../e2e/support/wallet-chromium";
import type { BrowserBench, Ratio } from "./bench";
import {
  BENCH_PRICE,
  type Gap,
  gapDurations,
  pairedGapDifferences,
  startBenchReceiver,
} from "./bench-receiver";
import { devtoolsCalls } from "./devtools-socket";
import { summarize } from "./stats";
import { openWalletBrowser } from "./wallet-browser";

/**
 * Payments started per second: within the 10 a second (600 a minute) one
 * site may ask of the wallet (lib/background/page-guard.ts), so none is
 * refused for its rate and the first and last payments meet the same load.
 */
const PER_SECOND = 9;

const FIRST = "wallet: 402 sent -> paid retry arrived, first payments";
const LAST = "wallet: 402 sent -> paid retry arrived, last payments";
const FIRST_OWN = "wallet's own time (minus the round's plain gap), first payments";
const LAST_OWN = "wallet's own time (minus the round's plain gap), last payments";

/** The wallet's service worker heap in MB after a garbage collection, through the DevTools port. */
async function workerHeapMb(userDataDir: string, extensionId: string): Promise<number> {
  const [port] = (await readFile(join(userDataDir, "DevToolsActivePort"), "utf8")).split("\n");
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as {
    type: string;
    url: string;
    webSocketDebuggerUrl: string;
  }[];
  const worker = targets.find((t) => t.type === "service_worker" && t.url.includes(extensionId));
  if (!worker) throw new Error("the wallet's service worker is not a DevTools target");
  const [, usage] = await devtoolsCalls(worker.webSocketDebuggerUrl, [
    { method: "HeapProfiler.collectGarbage" },
    { method: "Runtime.getHeapUsage" },
  ]);
  return (usage as { usedSize: number }).usedSize / 1e6;
}

/** Ids whose payment reached the receiver other than exactly once. */
export function notPaidOnce(gaps: ReadonlyMap<string, Gap>, count: number): string[] {
  const wrong: string[] = [];
  for (let i = 0; i < count; i++) {
    const arrivals = gaps.get(String(i))?.paidArrivals ?? 0;
    if (arrivals !== 1) wrong.push(`${i} (${arrivals}x)`);
  }
  return wrong;
}

/**
 * Thousands of auto-approved payments from one page under a budget that
 * covers them: each paid exactly once, the ledger's count and the site's
 * spend exact, and the wallet no slower at the end than at the start.
 */
export const soakBench: BrowserBench = {
  title: "Soak in Chromium: auto-approved payments from one page, one after another",
  async run({ quick }) {
    const count = quick ? 200 : 5000;
    const window = quick ? 50 : 200;
    const receiver = await startBenchReceiver();
    const userDataDir = await mkdtemp(join(tmpdir(), "stipendex-soak-"));
    try {
      const browser = await openWalletBrowser(receiver.origin, {
        userDataDir,
        extraArgs: ["--remote-debugging-port=0"],
      });
      try {
        const extensionId = browser.session.extensionId ?? "";
        const page = await browser.session.context.newPage();
        await page.goto(`${receiver.origin}/`);
        const heapBefore = await workerHeapMb(userDataDir, extensionId);
        const failures = await page.evaluate(
          async ({ n, gapMs }) => {
            const failed: string[] = [];
            const start = performance.now();
            for (let i = 0; i < n; i++) {
              const due = start + i * gapMs;
              if (performance.now() < due) {
                await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
              }
              // Two plain requests first: their gap is the round's baseline (see paid-fetch.ts).
              await (await fetch(`/plain?id=${i}&step=1`)).text();
              await (await fetch(`/plain?id=${i}&step=2`)).text();
              const paid = await fetch(`/paid?id=${i}`);
              const body = await paid.text();
              if (paid.status !== 200) failed.push(`${i}: ${paid.status} ${body.slice(0, 200)}`);
            }
            return failed;
          },
          { n: count, gapMs: 1000 / PER_SECOND },
        );
        const heapAfter = await workerHeapMb(userDataDir, extensionId);
        if (failures.length > 0) {
          throw new Error(`${failures.length} paid fetches failed, first: ${failures[0]}`);
        }
        const twice = notPaidOnce(receiver.paid, count);
        if (twice.length > 0)
          throw new Error(`not paid exactly once: ${twice.slice(0, 5).join(", ")}`);
        const { total } = await callWallet(browser.walletPage, {
          method: "ui_listPayments",
          params: { filter: { origin: receiver.origin }, offset: 0, limit: 1 },
        });
        const spend = await callWallet(browser.walletPage, {
          method: "ui_getSpend",
          params: { origin: receiver.origin },
        });
        const spent = spend.reduce((sum, s) => sum + BigInt(s.origin?.spent ?? "0"), 0n);
        const expected = BENCH_PRICE * BigInt(count);
        if (total !== count || spent !== expected) {
          throw new Error(
            `the ledger has ${total} payments and ${spent} spent; ${count} and ${expected} were paid`,
          );
        }
        const times = gapDurations(receiver.paid);
        const own = pairedGapDifferences(receiver.paid, receiver.plain);
        const results = [
          { name: FIRST, stats: summarize(times.slice(0, window)) },
          { name: LAST, stats: summarize(times.slice(-window)) },
          { name: FIRST_OWN, stats: summarize(own.slice(0, window)) },
          { name: LAST_OWN, stats: summarize(own.slice(-window)) },
        ];
        const ratios: Ratio[] = [
          { label: "last / first", numerator: LAST, denominator: FIRST },
          { label: "own time, last / first", numerator: LAST_OWN, denominator: FIRST_OWN },
        ];
        return [
          {
            kind: "timings",
            title: `${count} payments, one tab, ${PER_SECOND} a second; the first and the last ${window} compared`,
            results,
            ratios,
            notes: [
              `every payment reached the receiver exactly once; the ledger holds ${total} payments and ${spent} micro (test USD) spent, exactly ${count} x ${BENCH_PRICE};`,
              `the wallet's service worker heap after a GC: ${heapBefore.toFixed(1)} MB before, ${heapAfter.toFixed(1)} MB after;`,
              "each payment follows two plain requests; its own time is its gap minus theirs, which takes out how busy the machine was then.",
            ],
          },
        ];
      } finally {
        await browser.close();
      }
    } finally {
      await receiver.close();
      await rm(userDataDir, { recursive: true, force: true });
    }
  },
};
