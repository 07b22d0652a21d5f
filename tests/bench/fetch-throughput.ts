import type { Page } from "playwright-core";
import { launchChromium } from "../e2e/support/chromium";
import type { BrowserBench } from "./bench";
import { startBenchReceiver } from "./bench-receiver";
import { summarize } from "./stats";

/** Milliseconds the page took for `count` fetches of /small, one after another or all at once. */
function fetchInPage(page: Page, count: number, parallel: boolean): Promise<number> {
  return page.evaluate(
    // No named helpers in here: tsx would wrap them in a __name() the page does not have.
    async ({ count, parallel }) => {
      const start = performance.now();
      const bodies: string[] = [];
      if (parallel) {
        bodies.push(
          ...(await Promise.all(
            Array.from({ length: count }, () => fetch("/small").then((r) => r.text())),
          )),
        );
      } else {
        for (let i = 0; i < count; i++) bodies.push(await (await fetch("/small")).text());
      }
      const elapsed = performance.now() - start;
      if (bodies.some((body) => body !== "ok")) throw new Error("/small answered something else");
      return elapsed;
    },
    { count, parallel },
  );
}

/** Free fetches with the wallet's hook in the page against a Chromium without any extension. */
export const fetchThroughputBench: BrowserBench = {
  title: "Non-paying fetch throughput in Chromium, with and without the wallet",
  async run({ quick }) {
    const sequential = quick ? 200 : 2000;
    const batch = quick ? 100 : 500;
    const rounds = quick ? 2 : 3;
    const receiver = await startBenchReceiver();
    const browsers = await Promise.all([
      launchChromium({ withWallet: true }),
      launchChromium({ withWallet: false }),
    ]).catch(async (error: unknown) => {
      await receiver.close();
      throw error;
    });
    try {
      const pages = await Promise.all(
        browsers.map(async (browser) => {
          const page = await browser.context.newPage();
          await page.goto(`${receiver.origin}/`);
          return page;
        }),
      );
      const kinds = [
        { label: `${sequential} sequential`, count: sequential, parallel: false },
        { label: `${batch} in parallel`, count: batch, parallel: true },
      ];
      const samples = new Map<string, number[]>();
      // Warm-up round untimed, then rounds alternating the two browsers so load falls on both.
      for (let round = 0; round <= rounds; round++) {
        for (const kind of kinds) {
          for (const [index, page] of pages.entries()) {
            const ms = await fetchInPage(page, kind.count, kind.parallel);
            const name = `${kind.label}, ${index === 0 ? "with wallet" : "no extension"}`;
            if (round > 0) samples.set(name, [...(samples.get(name) ?? []), ms]);
          }
        }
      }
      const results = [...samples].map(([name, times]) => ({ name, stats: summarize(times) }));
      const perFetch = results.map(
        ({ name, stats }) =>
          `${name}: ${((stats.medianMs * 1000) / (name.includes("sequential") ? sequential : batch)).toFixed(1)} µs per fetch (median)`,
      );
      return [
        {
          kind: "timings",
          title: `Page-timed fetches of a 2-byte resource on 127.0.0.1, ${rounds} rounds after 1 warm-up`,
          results,
          ratios: kinds.map((kind) => ({
            label: `${kind.label}: with wallet / without`,
            numerator: `${kind.label}, with wallet`,
            denominator: `${kind.label}, no extension`,
          })),
          notes: perFetch,
        },
      ];
    } finally {
      await Promise.allSettled([...browsers.map((browser) => browser.close()), receiver.close()]);
    }
  },
};
