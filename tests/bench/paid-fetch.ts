import { devAccounts } from "../../demo/chain/dev-accounts";
import type { Diagnostics } from "../../lib/messages";
import { launchFirefox } from "../e2e/support/firefox";
import { callWallet } from "../e2e/support/wallet-chromium";
import {
  callWallet as callFirefoxWallet,
  setUpWallet as setUpFirefoxWallet,
} from "../e2e/support/wallet-firefox";
import type { BrowserBench, Operation, Ratio } from "./bench";
import { gapDurations, pairedGapDifferences, startBenchReceiver } from "./bench-receiver";
import { sampleRounds } from "./measure";
import {
  canReadProcesses,
  cpuSpent,
  type ProcessCpu,
  processTree,
  processWithArgument,
} from "./process-cpu";
import { summarize } from "./stats";
import { STIPENDEX_PROOF, stipendexProofSuite } from "./stipendex-proof";
import { benchPolicy, openWalletBrowser } from "./wallet-browser";

export const WALLET_TIME = "wallet: 402 sent -> paid retry arrived";
/** How many runs of payments the signatures alone are timed between. */
const SLICES = 10;
/** A pause after each run, so the wallet's work that trails a payment is not timed with the signatures. */
const SETTLE_MS = 300;
export const PLAIN_GAP = "baseline: 200 sent -> next request arrived";
export const WALLET_OWN = "wallet's own time: 402 -> paid retry minus that round's plain gap";
/** The background's part of the wallet's own time: the rest is the hook, the relay and the ports between. */
export const BACKGROUND_PAY = "background: stipendex_pay message in -> answer out";
const PAGE_PAID = "page: paid fetch (402 + retry)";
const PAGE_PLAIN = "page: plain fetch round trip";

/** Round numbers `from` (inclusive) to `to`: each round's requests carry its number as `id`. */
interface Rounds {
  from: number;
  to: number;
}

interface PageTimes {
  paid: number[];
  plain: number[];
  failures: string[];
}

/** A browser with the wallet paying the bench receiver's origin under a budget, one tab open there. */
interface PayingTab {
  /** Runs `fn` in the tab (its body is serialized: it may use only its argument). */
  evaluate(fn: (rounds: Rounds) => Promise<PageTimes>, rounds: Rounds): Promise<PageTimes>;
  /** The background's counts so far (ui_getDiagnostics). */
  diagnostics(): Promise<Diagnostics>;
  /** The browser's processes and the CPU each has used; undefined where /proc cannot tell. */
  processes(): Map<number, ProcessCpu> | undefined;
  close(): Promise<void>;
}

/** Requests to the background and IndexedDB transactions per payment, between two counts. */
export function perPayment(before: Diagnostics, after: Diagnostics, payments: number): string[] {
  const per = (n: number) => (n / payments).toFixed(2);
  const methods = Object.keys(after.requests)
    .map(
      (method) => [method, (after.requests[method] ?? 0) - (before.requests[method] ?? 0)] as const,
    )
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => a.localeCompare(b));
  const requests = methods.reduce((sum, [, n]) => sum + n, 0);
  const transactions = (mode: "readonly" | "readwrite") =>
    after.transactions[mode] - before.transactions[mode];
  return [
    `per payment, counted over ${payments}: ${per(requests)} requests to the background (${methods.map(([method, n]) => `${method} ${per(n)}`).join(", ")}), each one message on the relay's port each way;`,
    `${per(transactions("readwrite"))} read-write and ${per(transactions("readonly"))} read-only IndexedDB transactions.`,
  ];
}

/**
 * The background's handling times of the last `count` requests of `method`
 * (ui_getDiagnostics keeps the latest); throws when it kept fewer.
 */
export function lastHandlingTimes(after: Diagnostics, method: string, count: number): number[] {
  const times = after.handlingMs[method] ?? [];
  if (times.length < count) {
    throw new Error(
      `the background kept ${times.length} handling times of ${method}, not ${count}`,
    );
  }
  return times.slice(-count);
}

/**
 * Each round: two plain fetches back to back (their gap at the receiver is the baseline: the
 * page reading a response and sending the next request), then one paid fetch. Page-timed too.
 */
function payInPage(tab: PayingTab, rounds: Rounds): Promise<PageTimes> {
  return tab.evaluate(async ({ from, to }) => {
    const times: PageTimes = { paid: [], plain: [], failures: [] };
    for (let i = from; i < to; i++) {
      let start = performance.now();
      await (await fetch(`/plain?id=${i}&step=1`)).text();
      times.plain.push(performance.now() - start);
      await (await fetch(`/plain?id=${i}&step=2`)).text();
      start = performance.now();
      const paid = await fetch(`/paid?id=${i}`);
      const body = await paid.text();
      times.paid.push(performance.now() - start);
      if (paid.status !== 200) times.failures.push(`${paid.status} ${body.slice(0, 300)}`);
    }
    return times;
  }, rounds);
}

/**
 * The payments in `slices` runs of rounds, with lib's signatures timed in Node
 * after each: both figures then sample the same minutes of a shared machine,
 * instead of the signatures only its last second.
 */
async function payInSlices(
  tab: PayingTab,
  sign: Operation,
  { warmup, timed, slices }: { warmup: number; timed: number; slices: number },
): Promise<{ times: PageTimes; signing: number[] }> {
  const times: PageTimes = { paid: [], plain: [], failures: [] };
  const signing: number[] = [];
  let from = 0;
  for (let slice = 0; slice < slices; slice++) {
    const to = warmup + Math.round(((slice + 1) * timed) / slices);
    const paid = await payInPage(tab, { from, to });
    // The last payment's receipt is still being filed: the signatures are timed once it is.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    times.paid.push(...paid.paid);
    times.plain.push(...paid.plain);
    times.failures.push(...paid.failures);
    const [samples = []] = await sampleRounds([sign], {
      warmup: slice === 0 ? warmup : 0,
      iterations: to - from - (slice === 0 ? warmup : 0),
    });
    signing.push(...samples);
    from = to;
  }
  return { times, signing };
}

/** Rounds of three plain fetches: a paid round with its paid fetch made free. */
function plainRoundsInPage(tab: PayingTab, rounds: Rounds): Promise<PageTimes> {
  return tab.evaluate(async ({ from, to }) => {
    const times: PageTimes = { paid: [], plain: [], failures: [] };
    for (let i = from; i < to; i++) {
      for (let n = 0; n < 3; n++) await (await fetch("/small")).text();
    }
    return times;
  }, rounds);
}

/**
 * The CPU the browser's processes use per round of two plain fetches and a paid one, and per
 * round of three plain fetches, by process: their difference is what a payment costs the browser
 * (the wallet's work, and the 402's extra request). Rows by process, then the total.
 */
async function cpuPerRound(
  tab: PayingTab,
  rounds: Rounds,
): Promise<{ rows: string[][]; perPayment: number } | undefined> {
  const count = rounds.to - rounds.from;
  const spent = async (run: () => Promise<PageTimes>) => {
    const before = tab.processes();
    const { failures } = await run();
    if (failures.length > 0) throw new Error(`a paid fetch failed: ${failures[0]}`);
    // The receipt filed after the last retry belongs to the payments.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const after = tab.processes();
    return before && after ? new Map(cpuSpent(before, after)) : undefined;
  };
  const paid = await spent(() => payInPage(tab, rounds));
  const plain = await spent(() => plainRoundsInPage(tab, rounds));
  if (!paid || !plain) return undefined;
  const kinds = [...new Set([...paid.keys(), ...plain.keys()])];
  const per = (ms: number) => ms / count;
  const row = (name: string, a: number, b: number) => [
    name,
    `${per(a).toFixed(2)} ms`,
    `${per(b).toFixed(2)} ms`,
    `${per(a - b).toFixed(2)} ms`,
  ];
  const total = (map: Map<string, number>) => [...map.values()].reduce((sum, ms) => sum + ms, 0);
  return {
    rows: [
      ...kinds.map((kind) => row(kind, paid.get(kind) ?? 0, plain.get(kind) ?? 0)),
      row("all the browser's processes", total(paid), total(plain)),
    ],
    perPayment: per(total(paid) - total(plain)),
  };
}

/** Chromium (Playwright) with the wallet and a tab on `origin`. */
async function chromiumPayingTab(origin: string): Promise<PayingTab> {
  // A flag Chromium ignores: it finds the browser process among the machine's.
  const marker = `--stipendex-bench=${process.pid}-${Date.now()}`;
  const browser = await openWalletBrowser(origin, { extraArgs: [marker] });
  try {
    const page = await browser.session.context.newPage();
    await page.goto(`${origin}/`);
    const root = canReadProcesses() ? processWithArgument(marker) : undefined;
    return {
      evaluate: (fn, arg) => page.evaluate(fn, arg),
      diagnostics: () =>
        callWallet(browser.walletPage, { method: "ui_getDiagnostics", params: undefined }),
      processes: () => (root === undefined ? undefined : processTree(root)),
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** Firefox ESR (Puppeteer over WebDriver BiDi) with the wallet and a tab on `origin`. */
async function firefoxPayingTab(origin: string): Promise<PayingTab> {
  const key = devAccounts(1).payers[0]?.privateKey;
  if (!key) throw new Error("anvil's dev keys ran out");
  const session = await launchFirefox({ withWallet: true });
  try {
    const walletPage = await setUpFirefoxWallet(session, key);
    const policy = await callFirefoxWallet(walletPage, {
      method: "ui_getPolicy",
      params: undefined,
    });
    await callFirefoxWallet(walletPage, {
      method: "ui_setPolicy",
      params: benchPolicy(policy, origin),
    });
    const page = await session.browser.newPage();
    await page.goto(`${origin}/`);
    const root = canReadProcesses() ? session.browser.process()?.pid : undefined;
    return {
      evaluate: (fn, arg) => page.evaluate(fn, arg),
      diagnostics: () =>
        callFirefoxWallet(walletPage, { method: "ui_getDiagnostics", params: undefined }),
      processes: () => (root === undefined ? undefined : processTree(root)),
      close: () => session.close(),
    };
  } catch (error) {
    await session.close();
    throw error;
  }
}

/** The wallet's own time per auto-approved payment in one browser, seen from the receiver, beside lib's signing. */
function paidFetchIn(
  browserName: string,
  open: (origin: string) => Promise<PayingTab>,
): BrowserBench {
  return {
    title: `The wallet in ${browserName}: a Stipendex 402 to the paid retry, auto-approved`,
    async run({ quick }) {
      const warmup = quick ? 5 : 20;
      const timed = quick ? 20 : 200;
      const receiver = await startBenchReceiver();
      const tab = await open(receiver.origin).catch(async (error: unknown) => {
        await receiver.close();
        throw error;
      });
      try {
        const proof = stipendexProofSuite.benches[0];
        if (!proof) throw new Error("the Stipendex Proof suite has no bench");
        const sign = await proof.prepare();
        const before = await tab.diagnostics();
        const { times, signing: signed } = await payInSlices(tab, sign, {
          warmup,
          timed,
          slices: SLICES,
        });
        const after = await tab.diagnostics();
        const counted = perPayment(before, after, warmup + timed);
        if (times.failures.length > 0) {
          throw new Error(
            `${times.failures.length} paid fetches failed, first: ${times.failures[0]}`,
          );
        }
        const signing = summarize(signed);
        const kept = (samples: number[]) => summarize(samples.slice(warmup));
        const results = [
          { name: WALLET_TIME, stats: kept(gapDurations(receiver.paid)) },
          { name: PLAIN_GAP, stats: kept(gapDurations(receiver.plain)) },
          { name: PAGE_PAID, stats: kept(times.paid) },
          { name: PAGE_PLAIN, stats: kept(times.plain) },
          { name: `Node: ${STIPENDEX_PROOF}`, stats: signing },
          { name: WALLET_OWN, stats: kept(pairedGapDifferences(receiver.paid, receiver.plain)) },
          {
            name: BACKGROUND_PAY,
            stats: summarize(lastHandlingTimes(after, "stipendex_pay", timed)),
          },
        ];
        const ratios: Ratio[] = [
          {
            label: "wallet / signatures alone",
            numerator: WALLET_TIME,
            denominator: `Node: ${STIPENDEX_PROOF}`,
          },
          { label: "wallet / plain gap", numerator: WALLET_TIME, denominator: PLAIN_GAP },
          {
            label: "wallet's own time / signatures alone",
            numerator: WALLET_OWN,
            denominator: `Node: ${STIPENDEX_PROOF}`,
          },
          {
            label: "background / signatures alone",
            numerator: BACKGROUND_PAY,
            denominator: `Node: ${STIPENDEX_PROOF}`,
          },
        ];
        const cpuRounds = quick ? 20 : 100;
        const first = warmup + timed;
        const cpu = await cpuPerRound(tab, { from: first, to: first + cpuRounds });
        return [
          {
            kind: "timings",
            title: `${timed} payments after ${warmup} warm-up, one tab, receiver on 127.0.0.1 (no settlement)`,
            results,
            ratios,
            notes: [
              "wallet time = receiver clock: the 402 handed to the socket -> the retry with Stipendex-Payment arrived;",
              "it holds the hook, relay, background (verify, policy, ledger, Confirmation + EIP-3009 + Proof) and loopback.",
              `signatures alone: timed in Node after each of ${SLICES} slices of the payments, as many as the payments timed.`,
              "background: the worker's own clock, from the payment's message to its answer (verify, policy, the ledger's transaction, signatures);",
              "the wallet's own time beyond it is the hook and the relay's ports, both ways.",
              ...counted,
              ...(cpu ? [] : ["CPU by process: not read (no /proc on this machine)."]),
            ],
          },
          ...(cpu
            ? [
                {
                  kind: "table" as const,
                  title: `CPU used by ${browserName}'s processes (/proc), per round, over ${cpuRounds} rounds of each kind after the payments above`,
                  header: ["process", "2 plain + 1 paid", "3 plain", "the payment"],
                  rows: cpu.rows,
                  notes: [
                    `a payment costs the browser ${cpu.perPayment.toFixed(2)} ms of CPU in all, ${(cpu.perPayment / signing.medianMs).toFixed(2)}x the signatures alone (Node median);`,
                    "on a machine with two cores every process's CPU is time taken from the others: the payment's path waits for it.",
                  ],
                },
              ]
            : []),
        ];
      } finally {
        await Promise.allSettled([tab.close(), receiver.close()]);
      }
    },
  };
}

export const paidFetchBench = paidFetchIn("Chromium", chromiumPayingTab);
export const paidFetchFirefoxBench = paidFetchIn("Firefox", firefoxPayingTab);
