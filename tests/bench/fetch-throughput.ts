import { launchChromium } from "../e2e/support/chromium";
import { type BareTab, openBareTab } from "./bare-chromium";
import type { BrowserBench, Section } from "./bench";
import { startBenchReceiver } from "./bench-receiver";
import { summarize } from "./stats";

/** What a page evaluates to the milliseconds it took for `count` fetches of /small. */
function fetchExpression(count: number, parallel: boolean): string {
  return `(async () => {
    const start = performance.now();
    const bodies = ${parallel}
      ? await Promise.all(Array.from({ length: ${count} }, () => fetch("/small").then((r) => r.text())))
      : [];
    if (!${parallel}) for (let i = 0; i < ${count}; i++) bodies.push(await (await fetch("/small")).text());
    const elapsed = performance.now() - start;
    if (bodies.some((body) => body !== "ok")) throw new Error("/small answered something else");
    return elapsed;
  })()`;
}

interface FetchKind {
  label: string;
  count: number;
  parallel: boolean;
}

/** A tab with the wallet and one without, each able to evaluate an expression. */
type TabPair = readonly [
  withWallet: { evaluate(expression: string): Promise<unknown> },
  noExtension: { evaluate(expression: string): Promise<unknown> },
];

/** Timed rounds of every kind of fetch in both tabs, as one section named with `suffix`. */
async function fetchSection(
  tabs: TabPair,
  kinds: readonly FetchKind[],
  rounds: number,
  title: string,
  suffix: string,
): Promise<Section> {
  const samples = new Map<string, number[]>();
  // Warm-up round untimed, then rounds alternating the two browsers so load falls on both.
  for (let round = 0; round <= rounds; round++) {
    for (const kind of kinds) {
      for (const [index, tab] of tabs.entries()) {
        const ms = Number(await tab.evaluate(fetchExpression(kind.count, kind.parallel)));
        const name = `${kind.label}, ${index === 0 ? "with wallet" : "no extension"}${suffix}`;
        if (round > 0) samples.set(name, [...(samples.get(name) ?? []), ms]);
      }
    }
  }
  const results = [...samples].map(([name, times]) => ({ name, stats: summarize(times) }));
  const perFetch = results.map(({ name, stats }) => {
    const count = kinds.find((kind) => name.startsWith(`${kind.label},`))?.count ?? 1;
    return `${name}: ${((stats.medianMs * 1000) / count).toFixed(1)} µs per fetch (median)`;
  });
  return {
    kind: "timings",
    title,
    results,
    ratios: kinds.map((kind) => ({
      label: `${kind.label}${suffix}: with wallet / without`,
      numerator: `${kind.label}, with wallet${suffix}`,
      denominator: `${kind.label}, no extension${suffix}`,
    })),
    notes: perFetch,
  };
}

/** Free fetches with the wallet's hook in the page against a Chromium without any extension. */
export const fetchThroughputBench: BrowserBench = {
  title: "Non-paying fetch throughput in Chromium, with and without the wallet",
  async run({ quick }) {
    const sequential = quick ? 200 : 2000;
    const batch = quick ? 100 : 500;
    const rounds = quick ? 2 : 3;
    const kinds: FetchKind[] = [
      { label: `${sequential} sequential`, count: sequential, parallel: false },
      { label: `${batch} in parallel`, count: batch, parallel: true },
    ];
    const receiver = await startBenchReceiver();
    const origin = `${receiver.origin}/`;
    try {
      const browsers = await Promise.all([
        launchChromium({ withWallet: true }),
        launchChromium({ withWallet: false }),
      ]);
      let driven: Section;
      try {
        const [withWallet, noExtension] = browsers;
        const pageAt = async (browser: typeof withWallet) => {
          const page = await browser.context.newPage();
          await page.goto(origin);
          return page;
        };
        driven = await fetchSection(
          await Promise.all([pageAt(withWallet), pageAt(noExtension)]),
          kinds,
          rounds,
          `Page-timed fetches of a 2-byte resource on 127.0.0.1, ${rounds} rounds after 1 warm-up`,
          "",
        );
      } finally {
        await Promise.allSettled(browsers.map((browser) => browser.close()));
      }
      const bare: BareTab[] = [];
      try {
        const wallet = await openBareTab(origin, { withWallet: true });
        bare.push(wallet);
        const none = await openBareTab(origin, { withWallet: false });
        bare.push(none);
        if ((await wallet.evaluate("typeof window.stipendex")) !== "object") {
          throw new Error("The wallet's page hook is not in the bare tab: nothing to compare");
        }
        const undriven = await fetchSection(
          [wallet, none],
          kinds,
          rounds,
          `The same, in tabs driven over a bare DevTools socket (no network events: what a person's browser does), ${rounds} rounds after 1 warm-up`,
          ", bare tab",
        );
        return [driven, undriven];
      } finally {
        await Promise.allSettled(bare.map((tab) => tab.close()));
      }
    } finally {
      await receiver.close();
    }
  },
};
