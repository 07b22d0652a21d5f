import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { type Demo, HTTP_PRICES, startDemo } from "../../demo/server";
import type { PaymentFilter, PaymentRow } from "../../lib/messages";
import { type ChromiumSession, launchChromium } from "./support/chromium";
import { parseCsv } from "./support/ui-csv";
import { callWallet, nextConfirmWindow } from "./support/wallet-chromium";

const TIMEOUT = { timeout: 90_000 };
const SCREENSHOTS = fileURLToPath(new URL("../../test-results/screenshots/", import.meta.url));
const PASSWORD = "violet kettle under the stairs";
const STIPENDEX = ["Search (Stipendex)", "result-stipendex-http"] as const;
const X402_V1 = ["Search (x402 v1)", "result-x402-v1"] as const;
const today = () => new Date().toISOString().slice(0, 10);

describe(
  "The person's side in Chromium: onboarding, approvals, auto-approval, history",
  TIMEOUT,
  () => {
    let demo: Demo;
    let browser: ChromiumSession | undefined;
    let options: Page;
    let agent: Page;
    let agentOrigin: string;
    /** Every confirmation window the wallet opened, in order. */
    const confirmWindows: Page[] = [];

    before(async () => {
      demo = await startDemo();
      agentOrigin = new URL(demo.urls.agent).origin;
      browser = await launchChromium({ withWallet: true });
      browser.context.on("page", (page) => {
        if (page.url().endsWith("/confirm.html")) confirmWindows.push(page);
      });
      await mkdir(SCREENSHOTS, { recursive: true });
    }, TIMEOUT);

    after(async () => {
      await browser?.close().catch(() => undefined);
      await demo?.stop();
    });

    const session = () => browser ?? assert.fail("Chromium did not start");
    const list = async (filter: PaymentFilter = {}): Promise<PaymentRow[]> =>
      (
        await callWallet(options, {
          method: "ui_listPayments",
          params: { filter, offset: 0, limit: 100 },
        })
      ).rows;

    /** Clicks an agent console button and waits for its result; returns the HTTP status the page saw. */
    const search = async ([button, result]: readonly [string, string]): Promise<number> => {
      const output = agent.getByTestId(result);
      await output.evaluate((element) => element.setAttribute("data-state", "idle"));
      await agent.getByRole("button", { name: button }).click();
      await agent
        .locator(`[data-testid="${result}"][data-state="done"]`)
        .waitFor({ timeout: 20_000 });
      const shown = JSON.parse((await output.textContent()) ?? "{}") as { status?: number };
      return shown.status ?? 0;
    };

    it("onboards from a fresh profile: import a key, set first-run caps", async () => {
      const payer = demo.chain.accounts.payers[2];
      assert.ok(payer);
      options = await session().context.newPage();
      await options.goto(session().extensionUrl("options.html"));
      await options.getByRole("radio", { name: "a key I have" }).check();
      await options.getByLabel("Private key").fill(payer.privateKey);
      await options.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await options.getByLabel("Confirm password").fill(PASSWORD);
      await options.getByRole("button", { name: "Import key" }).click();
      await options.getByLabel("Daily cap (USD)").fill("3");
      await options.getByLabel("Monthly cap (USD)").fill("40");
      await options.getByTestId("address").getByText(payer.address, { exact: false }).waitFor();
      await options.getByRole("button", { name: "Save" }).click();
      await options.getByRole("tab", { name: "History" }).waitFor();

      const state = await callWallet(options, { method: "ui_getState", params: undefined });
      assert.equal(state.locked, false);
      assert.equal(state.address?.toLowerCase(), payer.address.toLowerCase());
      const policy = await callWallet(options, { method: "ui_getPolicy", params: undefined });
      assert.deepEqual(policy.globalCaps.USD, { day: "3000000", month: "40000000" });
      assert.deepEqual(policy.origins, {}, "no site is auto-approved on first run");
    });

    it("pays after Approve in the confirmation window, and pays nothing after Decline", async () => {
      agent = await session().context.newPage();
      await agent.goto(demo.urls.agent);
      await agent.locator("body[data-ready=true]").waitFor();

      let confirm = nextConfirmWindow(session().context);
      const approved = search(STIPENDEX);
      let window = await confirm;
      await window.getByRole("button", { name: "Approve" }).waitFor();
      await window.getByText(agentOrigin).first().waitFor();
      // About the inside of the 420×640 window the background opens (Playwright's default is wider).
      await window.setViewportSize({ width: 420, height: 600 });
      await window.screenshot({ path: `${SCREENSHOTS}confirmation-window.png` });
      const approve = await window.getByRole("button", { name: "Approve" }).boundingBox();
      assert.ok(
        approve && approve.y + approve.height <= 600,
        "Approve is in view without scrolling",
      );
      await window.getByRole("button", { name: "Approve" }).click();
      assert.equal(await approved, 200);

      confirm = nextConfirmWindow(session().context);
      const declined = search(X402_V1);
      window = await confirm;
      await window.getByRole("button", { name: "Decline" }).click();
      assert.equal(await declined, 402, "the page gets the original 402");
      const states = (await list()).map((row) => row.state).sort();
      assert.deepEqual(states, ["declined", "settled"]);
    });

    it("auto-approves the site after “Always allow up to”, with no window", async () => {
      const confirm = nextConfirmWindow(session().context);
      const allowed = search(STIPENDEX);
      const window = await confirm;
      await window.getByRole("checkbox", { name: "Always allow up to" }).check();
      await window.getByLabel("Daily amount for this site").fill("0.5");
      await window.getByRole("button", { name: "Approve" }).click();
      assert.equal(await allowed, 200);
      const budget = (await callWallet(options, { method: "ui_getPolicy", params: undefined }))
        .origins[agentOrigin];
      assert.equal(budget?.amount, "500000");

      const windowsBefore = confirmWindows.length;
      assert.equal(await search(STIPENDEX), 200);
      assert.equal(confirmWindows.length, windowsBefore, "the third payment opened no window");
      const rows = await list({ origin: agentOrigin });
      assert.equal(rows.length, 4);
      assert.equal(rows.filter((row) => row.state === "settled").length, 3);
      for (const row of rows.filter((r) => r.state === "settled")) {
        assert.equal(row.amount.atomic, HTTP_PRICES.stipendex.toString());
      }

      const popup = await session().context.newPage();
      await popup.setViewportSize({ width: 380, height: 640 });
      await popup.goto(session().extensionUrl("popup.html"));
      await popup.getByRole("button", { name: "Lock" }).waitFor();
      await popup.screenshot({ path: `${SCREENSHOTS}popup.png`, fullPage: true });
      await popup.close();
    });

    it("shows the history, narrows it with filters, and exports CSV rows matching the ledger", async () => {
      // A payment from another site, so the Origin filter has something to leave out.
      const other = await session().context.newPage();
      await other.goto(`${demo.urls.stipendex}/.well-known/stipendex.json`);
      const confirm = nextConfirmWindow(session().context);
      const paid = other.evaluate(() => fetch("/api/search?q=elsewhere").then((r) => r.status));
      await (await confirm).getByRole("button", { name: "Approve" }).click();
      assert.equal(await paid, 200);
      await other.close();

      await options.reload();
      await options.getByRole("tab", { name: "History" }).click();
      const count = options.getByText(/^\d+ payments?$/);
      const lines = options.getByRole("list", { name: "Payments" }).getByRole("listitem");
      await count.getByText("5 payments").waitFor();
      assert.equal(await lines.count(), 5);
      await options.screenshot({ path: `${SCREENSHOTS}history.png`, fullPage: true });
      // Only today had spend: 4 Stipendex payments settled (the declined one moved nothing).
      const totals = options.getByRole("table").getByRole("row");
      assert.deepEqual(await totals.allInnerTexts(), ["Day\tSpent", `${today()}\t0.02 test USD`]);

      await options.getByLabel("Origin").fill(agentOrigin);
      await count.getByText("4 payments").waitFor();
      await options.getByLabel("State").selectOption("declined");
      await count.getByText("1 payment").waitFor();
      assert.match((await lines.first().textContent()) ?? "", /declined/);
      await options.getByLabel("State").selectOption("");
      await options.getByLabel("Origin").fill("");
      await options.getByLabel("Search payments").fill("elsewhere");
      await count.getByText("1 payment").waitFor();
      assert.match(
        (await lines.first().textContent()) ?? "",
        new RegExp(new URL(demo.urls.stipendex).host),
      );
      await options.getByLabel("Search payments").fill("");
      await count.getByText("5 payments").waitFor();

      const download = options.waitForEvent("download");
      await options.getByRole("button", { name: "Export CSV" }).click();
      const file = await (await download).path();
      const exported = parseCsv(await readFile(file, "utf8"));
      const ledger = await list();
      const byId = (a: { id?: string }, b: { id?: string }) =>
        (a.id ?? "").localeCompare(b.id ?? "");
      assert.deepEqual(
        exported
          .map((row) => ({ id: row.id, atomic: row.atomic, state: row.state, origin: row.origin }))
          .sort(byId),
        ledger
          .map((row) => ({
            id: row.id,
            atomic: row.amount.atomic,
            state: row.state,
            origin: row.origin,
          }))
          .sort(byId),
      );
    });
  },
);
