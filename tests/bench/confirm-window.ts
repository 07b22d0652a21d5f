import type { BrowserContext } from "playwright-core";
import type { Browser } from "puppeteer-core";
import { devAccounts } from "../../demo/chain/dev-accounts";
import { StipendexError } from "../../lib/errors";
import { launchChromium } from "../e2e/support/chromium";
import { launchFirefox } from "../e2e/support/firefox";
import type { Tab } from "../e2e/support/payments";
import { chromiumTab, firefoxTab } from "../e2e/support/tabs";
import { within } from "../e2e/support/wait";
import { setUpWallet as setUpChromiumWallet } from "../e2e/support/wallet-chromium";
import { setUpWallet as setUpFirefoxWallet } from "../e2e/support/wallet-firefox";
import type { BrowserBench, Section } from "./bench";
import { type BenchReceiver, receiverClock, startBenchReceiver } from "./bench-receiver";
import { type ClockPing, clockOffset, clockStep } from "./clock-offset";
import { summarize } from "./stats";

export class ConfirmWindowBenchError extends StipendexError {
  override name = "ConfirmWindowBenchError";

  constructor(message: string) {
    super("confirm-window-bench", message);
  }
}

/** What an instrumented confirmation window reports, on its own clock (performance.timeOrigin + now()). */
export interface WindowMarks {
  /** The window document's time origin: its navigation began. */
  navigationStart: number;
  /** From the window's navigation timing, when it has one. */
  domContentLoaded?: number;
  /** What installed the observer, before Approve was there. */
  via: "init script" | "wallet page";
  /** The first mutation batch with an Approve button in the DOM. */
  approve: number;
  /** The next animation frame after that: the frame that paints it begins. */
  frame: number;
  /** Distinct successive readings of the window's clock, to see its resolution. */
  readings: number[];
  /** Requests from the window to the receiver's /clock, made after the frame. */
  pings: ClockPing[];
}

/** Requests each window makes to relate its clock to the receiver's. */
const PINGS = 5;
/** The window's property holding its report. */
const GLOBAL = "__benchConfirmWindow";

/**
 * Instruments one confirmation window `win` (its document, clock and fetch). A MutationObserver
 * on its document, whose callback runs in the microtask checkpoint right after a DOM change,
 * stamps `approve` once React's commit has put Approve in the DOM (not when some driver looked);
 * then the next animation frame, the clock's resolution and the /clock requests.
 * `win[GLOBAL].done` resolves with the marks as JSON (a string crosses realms and drivers
 * alike), or an error if Approve was already there when the observer came. Plain JS in a
 * string: tsx would wrap a named function in a __name() the page does not have.
 */
const INSTRUMENT = `(win, clockUrl, via) => {
  if (win.${GLOBAL}) return;
  const now = () => win.performance.timeOrigin + win.performance.now();
  const marks = { navigationStart: win.performance.timeOrigin, via };
  let finish;
  const done = new win.Promise((resolve) => {
    finish = (value) => resolve(JSON.stringify(value));
  });
  win.${GLOBAL} = { done };
  const hasApprove = () => {
    for (const button of win.document.getElementsByTagName("button")) {
      if (button.textContent.trim() === "Approve") return true;
    }
    return false;
  };
  if (hasApprove()) return finish({ error: "Approve was on screen before the bench's observer" });
  const ping = async () => {
    const pings = [];
    for (let i = 0; i < ${PINGS}; i++) {
      const sentAt = now();
      const response = await win.fetch(clockUrl, { cache: "no-store" });
      const receiverAt = Number(await response.text());
      pings.push({ sentAt, receiverAt, receivedAt: now() });
    }
    return pings;
  };
  const observer = new win.MutationObserver(() => {
    if (marks.approve !== undefined || !hasApprove()) return;
    marks.approve = now();
    observer.disconnect();
    win.requestAnimationFrame(() => {
      marks.frame = now();
      const nav = win.performance.getEntriesByType("navigation")[0];
      if (nav?.domContentLoadedEventStart > 0) {
        marks.domContentLoaded = win.performance.timeOrigin + nav.domContentLoadedEventStart;
      }
      const readings = [now()];
      const until = readings[0] + 5;
      // The reading that ends the loop is kept: a window that loses the CPU here still sees a step.
      for (let reading = now(); ; reading = now()) {
        if (reading !== readings[readings.length - 1]) readings.push(reading);
        if (reading >= until || readings.length >= 30) break;
      }
      marks.readings = readings;
      ping().then(
        (pings) => finish({ ...marks, pings }),
        (error) => finish({ error: "/clock: " + String(error) }),
      );
    });
  });
  observer.observe(win.document, { childList: true, subtree: true, characterData: true });
}`;

const IS_CONFIRM_WINDOW = `(win) => win.location.pathname.endsWith("/confirm.html")`;

/** Chromium: a Playwright init script, run at the start of every document before its own scripts. */
export function initScript(clockUrl: string): string {
  return `if ((${IS_CONFIRM_WINDOW})(window)) (${INSTRUMENT})(window, ${JSON.stringify(clockUrl)}, "init script");`;
}

/**
 * Evaluated once in a wallet page (same extension, so extension.getViews hands it the window
 * objects of the extension's other pages). When a confirmation window sends a message to the
 * background, which it must have answered before it can show a request, this instruments that
 * window if nothing has yet (Firefox runs no BiDi preload script in moz-extension:// pages; a
 * Chromium window whose init script came late) and queues its report. The driver takes reports
 * with `nextReport()` here, so it never polls the window it measures.
 */
export function walletPageWatcher(clockUrl: string): string {
  return `(() => {
  const api = globalThis.browser ?? globalThis.chrome;
  const reports = [];
  const waiting = [];
  const deliver = (report) => {
    const next = waiting.shift();
    if (next) next(report);
    else reports.push(report);
  };
  const followed = new WeakSet();
  api.runtime.onMessage.addListener((message, sender) => {
    if (!sender.url?.endsWith("/confirm.html")) return;
    for (const view of api.extension.getViews()) {
      if (!(${IS_CONFIRM_WINDOW})(view)) continue;
      (${INSTRUMENT})(view, ${JSON.stringify(clockUrl)}, "wallet page");
      const report = view.${GLOBAL};
      if (!report || followed.has(report)) continue;
      followed.add(report);
      report.done.then(deliver);
    }
  });
  window.${GLOBAL}Reports = {
    next: () => reports.length > 0 ? Promise.resolve(reports.shift()) : new Promise((resolve) => waiting.push(resolve)),
    popupsGone: () => new Promise((resolve) => {
      const check = () => api.windows.getAll({ windowTypes: ["popup"] }).then((open) => {
        if (open.length === 0) resolve(true);
      });
      api.windows.onRemoved.addListener(check);
      check();
    }),
  };
})()`;
}

/** One browser with the wallet set up (no budget for the receiver) and a tab on the receiver. */
interface WindowBrowser {
  /** Starts `/paid?id=` from the tab; resolves with the status the page got. */
  fetchPaid(id: string): Promise<number>;
  /** The next window the wallet opens (call before what opens it). */
  nextWindow(): Promise<Tab>;
  /** Evaluates in the wallet page that watches the windows. */
  inWalletPage(expression: string): Promise<unknown>;
  close(): Promise<void>;
}

const payerKey = () => {
  const key = devAccounts(1).payers[0]?.privateKey;
  if (!key) throw new ConfirmWindowBenchError("anvil's dev keys ran out");
  return key;
};

const fetchStatus = (id: string) =>
  `fetch("/paid?id=${encodeURIComponent(id)}").then(async (r) => { await r.text(); return r.status; })`;

async function openChromium(receiver: BenchReceiver): Promise<WindowBrowser> {
  const session = await launchChromium({ withWallet: true });
  try {
    const context: BrowserContext = session.context;
    const clockUrl = `${receiver.origin}/clock`;
    await context.addInitScript({ content: initScript(clockUrl) });
    const walletPage = await setUpChromiumWallet(session, payerKey());
    await walletPage.evaluate(walletPageWatcher(clockUrl));
    const page = await context.newPage();
    await page.goto(`${receiver.origin}/`);
    return {
      fetchPaid: async (id) => (await page.evaluate(fetchStatus(id))) as number,
      nextWindow: async () =>
        chromiumTab(
          await context.waitForEvent("page", {
            predicate: (p) => p.url().endsWith("/confirm.html"),
            timeout: 20_000,
          }),
        ),
      inWalletPage: (expression) => walletPage.evaluate(expression),
      close: () => session.close(),
    };
  } catch (error) {
    await session.close();
    throw error;
  }
}

async function openFirefox(receiver: BenchReceiver): Promise<WindowBrowser> {
  const session = await launchFirefox({ withWallet: true });
  try {
    const browser: Browser = session.browser;
    const walletPage = await setUpFirefoxWallet(session, payerKey());
    await walletPage.evaluate(walletPageWatcher(`${receiver.origin}/clock`));
    const page = await browser.newPage();
    await page.goto(`${receiver.origin}/`);
    // BiDi reports a new window as about:blank and never its moz-extension:// URL (nor, when
    // it closes itself, its end): every page opened after these is a confirmation window.
    const known = new Set(browser.targets());
    return {
      fetchPaid: async (id) => (await page.evaluate(fetchStatus(id))) as number,
      async nextWindow() {
        const target = await browser.waitForTarget((t) => t.type() === "page" && !known.has(t), {
          timeout: 20_000,
        });
        known.add(target);
        const window = await target.page();
        if (!window) throw new ConfirmWindowBenchError("the new window has no page to drive");
        return firefoxTab(window);
      },
      inWalletPage: (expression) => walletPage.evaluate(expression),
      close: () => session.close(),
    };
  } catch (error) {
    await session.close();
    throw error;
  }
}

/** One timed window: its marks (window clock) and its 402's writing (receiver clock, epoch ms). */
export interface WindowRound {
  /** Just before the receiver wrote the 402. */
  sentAt: number;
  /** How long that write took to return (it can lose the CPU to the browser right after). */
  writeMs: number;
  marks: WindowMarks;
}

async function windowRound(
  browser: WindowBrowser,
  receiver: BenchReceiver,
  id: string,
): Promise<WindowRound> {
  // Each step named in its failure: a driver's own error ("Target page ... closed") does not say which page.
  const step = <T>(what: string, pending: Promise<T>) =>
    pending.catch((error: unknown) => {
      throw new ConfirmWindowBenchError(`${what}: ${String(error)}`);
    });
  const opening = step("waiting for the window", browser.nextWindow());
  const reported = step(
    "the wallet page's report",
    browser.inWalletPage(`window.${GLOBAL}Reports.next()`),
  );
  const status = step("the receiver tab's fetch", browser.fetchPaid(id));
  // Awaited below; until then a failure elsewhere must not leave these rejections unhandled.
  for (const pending of [opening, reported, status]) pending.catch(() => undefined);
  const window = await within(opening, "the confirmation window to open", 20_000);
  const report = JSON.parse(String(await within(reported, "the window's report", 20_000))) as
    | WindowMarks
    | { error: string };
  if ("error" in report) throw new ConfirmWindowBenchError(`in the window: ${report.error}`);
  // Approved, not declined: a site whose requests keep ending unpaid is held back after 20 in a
  // minute (the unpaid brake, engine-parts.ts), and its next window would never open.
  await step("clicking Approve", window.click("Approve"));
  const got = await within(status, "the page's fetch to answer after Approve", 20_000);
  if (got !== 200) throw new ConfirmWindowBenchError(`the approved fetch got ${got}, not 200`);
  await within(
    step("the wallet page's watch", browser.inWalletPage(`window.${GLOBAL}Reports.popupsGone()`)),
    "the confirmation window to close",
    20_000,
  );
  const writing = receiver.paid.get(id)?.writing;
  if (!writing) throw new ConfirmWindowBenchError(`the receiver wrote no 402 for ${id}`);
  return {
    sentAt: receiverClock(writing.before),
    writeMs: writing.after - writing.before,
    marks: report,
  };
}

export const APPROVE_RENDERED = "402 sent -> window's Approve rendered";
export const NAVIGATION_START = "402 sent -> confirm.html navigation start";
export const DOM_CONTENT_LOADED = "402 sent -> confirm.html DOMContentLoaded";
export const FIRST_FRAME = "402 sent -> the frame painting Approve begins";

const ms = (value: number) => value.toFixed(3);

/**
 * One browser's lines: each window's marks put on the receiver's clock with one offset (from
 * the fastest /clock round trip of all its windows), in milliseconds after that window's 402.
 */
export function browserSection(
  name: string,
  rounds: readonly WindowRound[],
  warmup: number,
  browserNote: string,
): Section {
  // The clock's resolution is the browser's: a larger step a window saw only means it lost the CPU.
  const resolutionMs = Math.min(...rounds.map(({ marks }) => clockStep(marks.readings)));
  const offset = clockOffset(
    rounds.flatMap(({ marks }) => marks.pings),
    resolutionMs,
  );
  const perWindow = rounds.map(({ marks }) => clockOffset(marks.pings).offsetMs);
  const line = (label: string, mark: (marks: WindowMarks) => number | undefined) => {
    const samples = rounds.flatMap(({ sentAt, marks }) => {
      const at = mark(marks);
      return at === undefined ? [] : [at + offset.offsetMs - sentAt];
    });
    // A mark not every window had (navigation timing) is left out rather than half counted.
    return samples.length === rounds.length
      ? [{ name: `${name}: ${label}`, stats: summarize(samples) }]
      : [];
  };
  const writes = summarize(rounds.map(({ writeMs }) => writeMs));
  const byInitScript = rounds.filter(({ marks }) => marks.via === "init script").length;
  return {
    kind: "timings",
    title: `${name}: ${rounds.length} confirmation windows after ${warmup} warm-up, each approved (the payment made) and closed before the next 402`,
    results: [
      ...line(NAVIGATION_START, (marks) => marks.navigationStart),
      ...line(DOM_CONTENT_LOADED, (marks) => marks.domContentLoaded),
      ...line(APPROVE_RENDERED, (marks) => marks.approve),
      ...line(FIRST_FRAME, (marks) => marks.frame),
    ],
    ratios: [],
    notes: [
      `t0: the receiver's clock (performance.timeOrigin + performance.now() in Node: epoch ms to the µs, finer than Date.now()) just before it wrote the 402; the write returned within median ${ms(writes.medianMs)}, max ${ms(Math.max(...rounds.map(({ writeMs }) => writeMs)))} ms (on a busy machine Node loses the CPU right after it, hence before);`,
      "t1: the window's own clock (timeOrigin + now()) in a MutationObserver callback, the microtask after React put Approve in the DOM (disabled then: the ~750 ms activation delay follows, not counted);",
      `window clock ${offset.offsetMs < 0 ? "-" : "+"} ${ms(Math.abs(offset.offsetMs))} ms = receiver clock, from the fastest of ${rounds.length * PINGS} /clock round trips the windows made (±${ms(offset.boundMs)} ms incl. the window clock's ${ms(resolutionMs)} ms steps; per window ${ms(Math.min(...perWindow))} .. ${ms(Math.max(...perWindow))} ms):`,
      `every time above is within ±${ms(offset.boundMs + resolutionMs)} ms (plus the write above, if Node lost the CPU before it); the driver waits on the windows' own reports, it never polls them;`,
      `observer set at document start by an init script in ${byInitScript} of ${rounds.length} windows, in the others by a wallet page at the window's first message to the background, before any Approve (checked); ${browserNote}`,
    ],
  };
}

async function benchBrowser(
  name: string,
  open: (receiver: BenchReceiver) => Promise<WindowBrowser>,
  counts: { warmup: number; timed: number },
  browserNote: string,
): Promise<Section> {
  const receiver = await startBenchReceiver();
  const browser = await open(receiver).catch(async (error: unknown) => {
    await receiver.close();
    throw error;
  });
  try {
    const rounds: WindowRound[] = [];
    for (let round = 0; round < counts.warmup + counts.timed; round++) {
      const measured = await windowRound(browser, receiver, `w${round}`).catch((error: unknown) => {
        throw new ConfirmWindowBenchError(`${name}, round ${round + 1}: ${String(error)}`);
      });
      if (round >= counts.warmup) rounds.push(measured);
    }
    return browserSection(name, rounds, counts.warmup, browserNote);
  } finally {
    await Promise.allSettled([browser.close(), receiver.close()]);
  }
}

/**
 * How long a payment that needs the person takes to put its question on screen: the wallet
 * with no budget for the receiver, so each 402 opens the confirmation window, in both browsers.
 */
export const confirmWindowBench: BrowserBench = {
  title: "The confirmation window in Chromium and Firefox: a 402 to its Approve button on screen",
  async run({ quick }) {
    const counts = { warmup: 3, timed: quick ? 10 : 30 };
    const chromium = await benchBrowser(
      "Chromium",
      openChromium,
      counts,
      "the driver (Playwright) attaches to each new window, inside these times.",
    );
    const firefox = await benchBrowser(
      "Firefox",
      openFirefox,
      counts,
      "Firefox runs no BiDi preload script in moz-extension:// pages, so there it is always the wallet page.",
    );
    return [chromium, firefox];
  },
};
