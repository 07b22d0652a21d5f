import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { privateKeyToAccount } from "viem/accounts";
import { type Demo, HTTP_PRICES, startDemo } from "../../../demo/server";
import type { PaymentRow } from "../../../lib/messages";
import { parseAmount } from "../../../lib/protocol/rails/amount";
import { parseCsv } from "./ui-csv";
import { useDemoChain, type WalletCall } from "./wallet-setup";

/**
 * The person's whole first session, in either browser: onboarding with the
 * backup step and the funding screen, an approval in the window, a site's
 * automatic payments switched off from the popup, a custom token added,
 * the history sorted and exported. axe-core checks every page it passes;
 * screenshots (light and dark) go to docs/screenshots/ when the driver takes them.
 */

export type Role = "button" | "tab" | "checkbox" | "switch" | "radio" | "heading";
export type Scheme = "light" | "dark";

/** One tab, driven by role and accessible name or label, the way a person finds things. */
export interface UiPage {
  click(role: Role, name: string): Promise<void>;
  /** Waits until a control with this role and name is on the page. */
  waitFor(role: Role, name: string): Promise<void>;
  fill(label: string, value: string): Promise<void>;
  select(label: string, value: string): Promise<void>;
  /** The text of the first element with this data-testid, once there. */
  text(testId: string): Promise<string>;
  texts(testId: string): Promise<string[]>;
  /** Runs a script expression in the page; resolves with its (awaited) value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Shows the page with the system set to light or dark (only those in UiBrowser.schemes). */
  colorScheme(scheme: Scheme): Promise<void>;
  /** Writes a full-page screenshot; a driver that cannot emulate dark mode may skip it. */
  screenshot(file: string): Promise<void>;
  /** Sizes the viewport like the popup or the window, where the driver can. */
  setSize(width: number, height: number): Promise<void>;
  reload(): Promise<void>;
  bringToFront(): Promise<void>;
  call: WalletCall;
}

export interface UiBrowser {
  /** Opens popup.html or options.html in a new tab. */
  openWalletPage(path: "popup.html" | "options.html"): Promise<UiPage>;
  openPage(url: string): Promise<UiPage>;
  /** Resolves with the next confirmation window; call before what opens it. */
  nextConfirmWindow(): Promise<UiPage>;
  confirmWindowsOpened(): number;
  /** Whether screenshots are written (one browser is enough for the README). */
  screenshots: boolean;
  /** The system themes the driver can show a page in; each is checked with axe. */
  schemes: readonly Scheme[];
  close(): Promise<void>;
}

export const SCREENSHOTS = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url));
const PASSWORD = "violet kettle under the stairs";
const STIPENDEX = ["Search (Stipendex)", "result-stipendex-http"] as const;

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe-core's serious and critical findings on the page as it is now. */
export async function axeFindings(page: UiPage): Promise<AxeFinding[]> {
  return page.evaluate<AxeFinding[]>(`(async () => {
    if (!window.axe) { ${AXE_SOURCE} }
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  })()`);
}

/** Checks the page with axe and photographs it, in light and in dark. */
async function look(browser: UiBrowser, page: UiPage, name: string): Promise<void> {
  const switching = browser.schemes.length > 1;
  for (const scheme of browser.schemes) {
    if (switching) await page.colorScheme(scheme);
    const findings = await axeFindings(page);
    assert.deepEqual(
      findings,
      [],
      `axe on ${name} (${scheme}): ${JSON.stringify(findings, null, 1)}`,
    );
    if (browser.screenshots) await page.screenshot(`${SCREENSHOTS}${name}-${scheme}.png`);
  }
  if (switching) await page.colorScheme("light");
}

/** What `read` gives once `ok` holds of it, or its last answer after about five seconds. */
async function settled<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let tries = 0; tries < 50; tries++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return read();
}

/** The demo token's amount in the popup's balance rows, as atomic units. */
async function popupTokenBalance(popup: UiPage, symbol: string): Promise<bigint> {
  await popup.waitFor("heading", "Balance");
  const shown = (rows: string[]) =>
    rows.find((text) => text.includes(` ${symbol} on `))?.split(" ")[0];
  const amount = shown(
    await settled(
      () => popup.texts("balance-row"),
      (rows) => !!shown(rows),
    ),
  );
  return amount ? parseAmount(amount, 6) : assert.fail(`the popup shows no ${symbol} balance`);
}

export function describeUiWalk(browserName: string, open: () => Promise<UiBrowser>): void {
  describe(`The person's first session in ${browserName}`, { timeout: 240_000 }, () => {
    let demo: Demo;
    let browser: UiBrowser | undefined;
    let options: UiPage;
    let agent: UiPage;
    let agentOrigin: string;
    let address: string;

    before(async () => {
      demo = await startDemo();
      agentOrigin = new URL(demo.urls.agent).origin;
      browser = await open();
      await mkdir(SCREENSHOTS, { recursive: true });
    });

    after(async () => {
      await browser?.close().catch(() => undefined);
      await demo?.stop();
    });

    const session = () => browser ?? assert.fail(`${browserName} did not start`);
    const ledger = async (): Promise<PaymentRow[]> =>
      (
        await options.call({
          method: "ui_listPayments",
          params: { filter: {}, offset: 0, limit: 100 },
        })
      ).rows;
    /** Clicks an agent console button and waits for its result; returns the HTTP status the page saw. */
    const search = async ([button, result]: readonly [string, string]): Promise<number> => {
      await agent.evaluate(
        `document.querySelector('[data-testid="${result}"]').setAttribute("data-state", "idle")`,
      );
      await agent.click("button", button);
      await agent.evaluate(`new Promise((resolve) => {
        const done = () => document.querySelector('[data-testid="${result}"][data-state="done"]');
        const poll = () => (done() ? resolve(true) : setTimeout(poll, 50));
        poll();
      })`);
      const shown = JSON.parse(await agent.text(result)) as { status?: number };
      return shown.status ?? 0;
    };

    it("onboards: what it does, a new key backed up, caps, and how to fund it", async () => {
      options = await session().openWalletPage("options.html");
      await options.waitFor("heading", "Welcome to Stipendex Wallet");
      await look(session(), options, "onboarding-welcome");
      await options.click("button", "Create a new wallet");
      await options.fill("Password", PASSWORD);
      await options.fill("Confirm password", PASSWORD);
      await options.click("button", "Create wallet");

      await options.waitFor("heading", "Back up your key");
      const state = await options.call({ method: "ui_getState", params: undefined });
      assert.equal(state.backupPending, true, "a new key waits for its backup");
      address = state.address ?? assert.fail("the new wallet has no address");
      await options.click("button", "Show my key");
      const key = await options.text("backup-key");
      assert.equal(
        privateKeyToAccount(key as `0x${string}`).address,
        address,
        "the key shown is the wallet's own",
      );
      await look(session(), options, "onboarding-backup");
      await options.click("checkbox", "I have saved my key somewhere safe");
      await options.click("button", "I saved it");

      await options.waitFor("heading", "Spending caps");
      const saved = await options.call({ method: "ui_getState", params: undefined });
      assert.equal(saved.backupPending, undefined, "the backup reminder is gone");
      // The wallet pays on the demo's local chain, as a person would pick their network.
      await useDemoChain(options.call, demo.chain);
      await options.fill("Daily cap (USD)", "3");
      await options.fill("Monthly cap (USD)", "40");
      await options.click("button", "Save");

      await options.waitFor("heading", "How to fund it");
      assert.equal(await options.text("fund-address"), address);
      await options.waitFor("heading", "How to fund it");
      const tokens = await options.text("fund-tokens");
      assert.match(tokens, new RegExp(`${demo.chain.token.symbol} on Base Sepolia`));
      await look(session(), options, "onboarding-funding");
      const policy = await options.call({ method: "ui_getPolicy", params: undefined });
      assert.deepEqual(policy.globalCaps.USD, { day: "3000000", month: "40000000" });

      // Funding it: the demo payer sends tokens to the address the screen showed.
      const payer = demo.chain.accounts.payers[0] ?? assert.fail("the demo has no payer");
      const hash = await demo.chain.walletClient(payer).writeContract({
        address: demo.chain.token.address,
        abi: demo.chain.token.abi,
        functionName: "transfer",
        args: [address as `0x${string}`, 1_000_000n],
      });
      await demo.chain.publicClient.waitForTransactionReceipt({ hash });
      await options.click("button", "Done");
      await options.waitFor("tab", "History");
    });

    it("pays after Approve in the window, and the popup's balance goes down by exactly the price", async () => {
      agent = await session().openPage(demo.urls.agent);
      await agent.evaluate(`new Promise((resolve) => {
        const poll = () => (document.body?.dataset.ready === "true" ? resolve(true) : setTimeout(poll, 50));
        poll();
      })`);
      const popup = await session().openWalletPage("popup.html");
      await popup.setSize(380, 640);
      const symbol = demo.chain.token.symbol;
      const before = await popupTokenBalance(popup, symbol);
      assert.equal(before, 1_000_000n, "the popup shows what was sent");

      const confirm = session().nextConfirmWindow();
      const paid = search(STIPENDEX);
      const window = await confirm;
      await window.waitFor("button", "Approve");
      await window.setSize(420, 600);
      await look(session(), window, "confirmation-window");
      await window.click("button", "Approve");
      assert.equal(await paid, 200);
      // Signed and collected: until the chain check finds its transaction (a moment after the
      // receipt) the popup counts it as signed, not yet collected, beside the chain's balance.
      const [payment] = await settled(ledger, (rows) => rows[0]?.state === "settled");
      assert.equal(payment?.state, "settled");

      await popup.reload();
      const afterPaying = await popupTokenBalance(popup, symbol);
      assert.equal(before - afterPaying, HTTP_PRICES.stipendex, "down by exactly the price");
    });

    it("switches a site's automatic payments off from the popup", async () => {
      const confirm = session().nextConfirmWindow();
      const allowed = search(STIPENDEX);
      const window = await confirm;
      await window.click("checkbox", "Always allow up to");
      await window.fill("Daily amount for this site", "0.5");
      await window.click("button", "Approve");
      assert.equal(
        await allowed,
        200,
        `the ledger's latest: ${JSON.stringify((await ledger())[0])}`,
      );
      const opened = session().confirmWindowsOpened();
      assert.equal(await search(STIPENDEX), 200);
      assert.equal(session().confirmWindowsOpened(), opened, "paid with no window");

      // The popup speaks for the tab in front: the agent page.
      const popup = await session().openWalletPage("popup.html");
      await popup.setSize(380, 640);
      await agent.bringToFront();
      await popup.reload();
      await popup.waitFor("switch", "Automatic payments on this site");
      assert.match(await popup.text("tab-origin"), new RegExp(new URL(agentOrigin).host));
      assert.match(await popup.text("site-budget"), /Budget: 0\.5 test USD per day/);
      await look(session(), popup, "popup");
      await popup.click("switch", "Automatic payments on this site");
      await popup.waitFor("heading", "This site");
      const policy = await settled(
        () => popup.call({ method: "ui_getPolicy", params: undefined }),
        (p) => p.origins[agentOrigin]?.autoApproveUpTo === "0",
      );
      assert.equal(policy.origins[agentOrigin]?.autoApproveUpTo, "0", "switched off");

      await agent.bringToFront();
      const asked = session().nextConfirmWindow();
      const declined = search(STIPENDEX);
      await (await asked).click("button", "Decline");
      assert.equal(await declined, 402, "the site asks again, and a decline pays nothing");
    });

    it("locks from the popup and unlocks with the password", async () => {
      const popup = await session().openWalletPage("popup.html");
      await popup.setSize(380, 640);
      await popup.click("button", "Lock");
      await popup.waitFor("button", "Unlock");
      const locked = await popup.call({ method: "ui_getState", params: undefined });
      assert.equal(locked.locked, true, "the wallet says it is locked");
      await look(session(), popup, "lock-screen");
      await popup.fill("Password", PASSWORD);
      await popup.click("button", "Unlock");
      await popup.waitFor("heading", "Balance");
      const unlocked = await popup.call({ method: "ui_getState", params: undefined });
      assert.equal(unlocked.locked, false, "unlocked again");
    });

    it("adds a custom token under Advanced in the settings", async () => {
      await options.reload();
      await options.click("tab", "Settings");
      await options.waitFor("heading", "Tokens");
      await look(session(), options, "settings");
      await options.evaluate(
        `[...document.querySelectorAll("summary")].find((s) => s.textContent === "Advanced").click()`,
      );
      await options.select("Token network", "eip155:84532");
      const custom = "0x1111111111111111111111111111111111111111";
      await options.fill("Token contract address", custom);
      await options.fill("Token symbol", "TST");
      await options.fill("Token decimals", "18");
      await options.click("button", "Add token");
      await options.click("button", "Save");
      await options.waitFor("heading", "Tokens");
      const { assets } = await settled(
        () => options.call({ method: "ui_getPolicy", params: undefined }),
        (p) => p.assets.some((a) => a.asset === custom),
      );
      assert.deepEqual(
        assets.find((a) => a.asset === custom),
        { network: "eip155:84532", asset: custom, decimals: 18, symbol: "TST", currency: "USD" },
      );
      const rows = await options.texts("token-row");
      assert.ok(
        rows.some((row) => row.startsWith("TSTBase Sepolia")),
        rows.join(" | "),
      );
    });

    it("shows every open wallet page in the theme picked in the settings, at once", async () => {
      const popup = await session().openWalletPage("popup.html");
      await popup.waitFor("heading", "Balance");
      await options.waitFor("heading", "Appearance");
      const themed = (page: UiPage) => page.evaluate<string>("document.documentElement.className");
      // The popup hears of the change from the storage event: it may come a moment later.
      const popupIn = (name: string) =>
        settled(
          () => themed(popup),
          (shown) => shown === name,
        );
      await options.select("Theme", "dark");
      assert.equal(await themed(options), "dark");
      assert.equal(await popupIn("dark"), "dark", "the popup open beside the settings turned dark");
      await options.select("Theme", "light");
      assert.equal(await popupIn("light"), "light");
      await options.select("Theme", "system");
      assert.equal(await popupIn(""), "");
      assert.equal(await themed(options), "");
    });

    it("sorts the history oldest first and exports what the ledger holds", async () => {
      await options.click("tab", "History");
      await options.waitFor("button", "When, newest first");
      const payments = await ledger();
      assert.equal(payments.length, 4);
      await look(session(), options, "history");
      const times = (rows: PaymentRow[]) =>
        rows.map((row) => new Date(row.createdAt).toISOString());
      const firstShown = async () =>
        (
          await options.evaluate<string>(
            `document.querySelector('[aria-label="Payments"] li button time')?.getAttribute("datetime") ?? ""`,
          )
        ).trim();
      assert.equal(await firstShown(), times(payments)[0]);
      await options.click("button", "When, newest first");
      await options.waitFor("button", "When, oldest first");
      assert.equal(
        await settled(firstShown, (time) => time === times(payments).at(-1)),
        times(payments).at(-1),
        "the oldest payment is first",
      );

      // The export's Blob is read where the page makes it, in either browser.
      await options.evaluate(`(() => {
        const create = URL.createObjectURL.bind(URL);
        URL.createObjectURL = (blob) => { window.__exported = blob.text(); return create(blob); };
      })()`);
      await options.click("button", "Export CSV");
      const csv = await options.evaluate<string>(`(async () => {
        while (!window.__exported) await new Promise((resolve) => setTimeout(resolve, 50));
        return window.__exported;
      })()`);
      const exported = parseCsv(csv);
      const byId = (a: { id?: string }, b: { id?: string }) =>
        (a.id ?? "").localeCompare(b.id ?? "");
      assert.deepEqual(
        exported.map((row) => ({ id: row.id, atomic: row.atomic, state: row.state })).sort(byId),
        (await ledger())
          .map((row) => ({ id: row.id, atomic: row.amount.atomic, state: row.state }))
          .sort(byId),
      );
      await options.click("button", `When, oldest first`);
      await options.waitFor("button", "When, newest first");
    });
  });
}
