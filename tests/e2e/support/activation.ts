import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Demo } from "../../../demo/server";
import { ACTIVATION_DELAY_MS } from "../../../lib/ui/activation-delay";
import { assertSettled, demoRig, snapshot, type Tab } from "./payments";
import { WaitTimeoutError } from "./wait";
import type { WalletCall } from "./wallet-setup";

/**
 * The checks that a page cannot get a payment approved with a keystroke or
 * click meant for something else: both browsers run them against the demo.
 */

/** A tab driven with raw input: keys and clicks arrive whether or not the page is ready for them. */
export interface InputTab extends Tab {
  pressEnter(): Promise<void>;
  /** Types `text` key by key into whatever has the focus. */
  type(text: string): Promise<void>;
  /** `clicks` mouse clicks in a row at (x, y), whatever is there and whether it is enabled. */
  clickAt(x: number, y: number, clicks: number): Promise<void>;
  /** Makes this tab's window the focused one, as a person clicking into it would. */
  bringToFront(): Promise<void>;
}

/** One browser's side of the suite: the wallet set up and the demo agent page open. */
export interface ActivationBrowser {
  agent: InputTab;
  wallet: WalletCall;
  /** Resolves with the next confirmation window (start before what opens it). */
  nextConfirmWindow(): Promise<InputTab>;
  confirmWindowsOpened(): number;
  close(): Promise<void>;
}

export interface ActivationOptions {
  /**
   * Whether bringing another window to the front takes focus from the
   * confirmation window. Headless Chromium reports every window focused
   * (Playwright emulates focus, and windows.getAll says focused for all), so
   * only Firefox can show the delay restarting on a real blur.
   */
  realWindowFocus: boolean;
}

interface HttpResult {
  status: number;
  headers: Record<string, string>;
}

const APPROVE = `[...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Approve")`;
const APPROVE_SHOWN = `!!${APPROVE}`;
const APPROVE_ARMED = `${APPROVE}?.disabled === false`;
const APPROVE_CENTRE = `(() => { const r = ${APPROVE}.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`;
/** Longer than the delay: an activation that counted has reached the wallet by then. */
const SETTLE_MS = ACTIVATION_DELAY_MS + 500;
const NOT_HELD =
  "Approve was enabled when the stray input arrived: it must stay disabled through the delay (or the driver was too slow to test it)";
const queueShows = (text: string) =>
  `document.querySelector('[data-testid="queue-position"]')?.textContent === ${JSON.stringify(text)}`;

/**
 * Polls `expression` in `tab` until it is true. (The drivers' own
 * waitForFunction evaluates through the page's eval, which an extension
 * page's CSP forbids.)
 */
async function until(tab: Tab, expression: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await tab.evaluate(expression)) !== true) {
    if (Date.now() > deadline) throw new WaitTimeoutError(expression, timeoutMs);
    await sleep(20);
  }
}

/**
 * What a page that fires a payment while the person types or double-clicks
 * gets: Enter and `clicks` clicks on Approve, delivered the moment the
 * window shows the request. Resolves with whether Approve was still held
 * (disabled) right after, so a pass never comes from a driver too slow to
 * strike inside the delay.
 */
async function strike(window: InputTab, clicks: number): Promise<boolean> {
  await until(window, APPROVE_SHOWN);
  await window.pressEnter();
  const { x, y } = (await window.evaluate(APPROVE_CENTRE)) as { x: number; y: number };
  await window.clickAt(x, y, clicks);
  // A window that approved and closed is not held either.
  return window.evaluate(`${APPROVE}?.disabled === true`).then(
    (held) => held === true,
    () => false,
  );
}

/**
 * Registers the activation checks for one browser. `open` launches it, sets
 * the wallet up with `payerKey` and opens the demo's agent page (closing the
 * browser itself if that fails).
 */
export function describeActivation(
  browserName: string,
  timeoutMs: number,
  options: ActivationOptions,
  open: (demo: Demo, payerKey: string) => Promise<ActivationBrowser>,
): void {
  describe(`Approve holds against stray input in ${browserName}`, { timeout: timeoutMs }, () => {
    const get = demoRig(browserName, timeoutMs, open);
    const pending = async () =>
      (await get().rig.wallet({ method: "ui_listPending", params: undefined })).length;
    /** Starts paid searches on the agent page; `done()` says whether all have answered. */
    const search = (queries: string[]) => {
      let answered = false;
      const results = (
        get().rig.agent.evaluate(
          `Promise.all(${JSON.stringify(queries)}.map((q) => agent.fetchApi(agent.config.stipendex, q)))`,
        ) as Promise<HttpResult[]>
      ).finally(() => {
        answered = true;
      });
      return { results, done: () => answered };
    };

    it("Enter and a double-click the moment a request shows approve nothing; a deliberate click later pays that one", async () => {
      const { rig, browser, origin } = get();
      const before = await snapshot(rig, origin);
      const confirm = browser.nextConfirmWindow();
      const paid = search(["stray"]);
      const window = await confirm;
      const held = await strike(window, 2);
      await sleep(SETTLE_MS);
      assert.equal(await pending(), 1, "the stray input approved the request");
      assert.equal(paid.done(), false, "the page got an answer without the person's yes");
      const known = new Set(before.rows.map((r) => r.id));
      const fresh = (await snapshot(rig, origin)).rows.filter((r) => !known.has(r.id));
      // Recorded as priced, and no further: nothing signed.
      assert.deepEqual(
        fresh.map((r) => r.state),
        ["quoted"],
      );
      assert.ok(held, NOT_HELD);

      await window.click("Approve");
      const [answer] = await paid.results;
      assert.equal(answer?.status, 200, JSON.stringify(answer));
      assert.ok(answer?.headers["Stipendex-Receipt"], JSON.stringify(answer));
      await assertSettled(rig, origin, before, [5_000n]);
    });

    it("an Enter that ends typing meant for the page approves nothing, however long after the delay; a click pays", async () => {
      const { rig, browser, origin } = get();
      const before = await snapshot(rig, origin);
      const confirm = browser.nextConfirmWindow();
      const paid = search(["typed"]);
      const window = await confirm;
      await until(window, APPROVE_SHOWN);
      // The person, looking at the page's chat box, goes on typing; the words land in the window.
      await window.type("please summarise this");
      await until(window, APPROVE_ARMED);
      await window.pressEnter();
      await sleep(SETTLE_MS);
      assert.equal(await pending(), 1, "the Enter ending the typed text approved the request");
      assert.equal(paid.done(), false, "the page got an answer without the person's yes");

      await window.click("Approve");
      const [answer] = await paid.results;
      assert.equal(answer?.status, 200, JSON.stringify(answer));
      await assertSettled(rig, origin, before, [5_000n]);
    });

    it("with two requests queued, one Enter and a double-click approve only the first; the next waits for its own delay", async () => {
      const { rig, browser, origin } = get();
      const before = await snapshot(rig, origin);
      const opened = rig.confirmWindowsOpened();
      const confirm = browser.nextConfirmWindow();
      const paid = search(["first", "second"]);
      const window = await confirm;
      await until(window, queueShows("1 of 2"));
      await until(window, APPROVE_ARMED);
      const { x, y } = (await window.evaluate(APPROVE_CENTRE)) as { x: number; y: number };
      await window.pressEnter();
      await window.clickAt(x, y, 2);
      await sleep(SETTLE_MS);
      assert.equal(await pending(), 1, "one gesture approved more than one request");
      await until(window, `!document.querySelector('[data-testid="queue-position"]')`);

      await window.click("Approve");
      const answers = await paid.results;
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200],
        JSON.stringify(answers),
      );
      assert.equal(rig.confirmWindowsOpened() - opened, 1, "one window for the queue");
      await assertSettled(rig, origin, before, [5_000n, 5_000n]);
    });

    it("a window that loses focus is held again, and re-arms only after the delay once back in front", {
      skip: !options.realWindowFocus && `${browserName} headless reports every window focused`,
    }, async () => {
      const { rig, browser, origin } = get();
      const before = await snapshot(rig, origin);
      const confirm = browser.nextConfirmWindow();
      const paid = search(["refocused"]);
      const window = await confirm;
      await until(window, APPROVE_ARMED);
      await browser.agent.bringToFront();
      await until(window, `${APPROVE}?.disabled === true`);
      await window.bringToFront();
      const held = await strike(window, 1);
      await sleep(SETTLE_MS);
      assert.equal(await pending(), 1, "input on a refocused window approved the request");
      assert.equal(paid.done(), false);
      assert.ok(held, NOT_HELD);

      await window.click("Approve");
      const [answer] = await paid.results;
      assert.equal(answer?.status, 200, JSON.stringify(answer));
      await assertSettled(rig, origin, before, [5_000n]);
    });
  });
}
