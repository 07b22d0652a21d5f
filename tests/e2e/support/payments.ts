import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Address } from "viem";
import { REFUSED_WINDOW_SECONDS } from "../../../demo/receiver/http";
import { type Demo, startDemo } from "../../../demo/server";
import type { PaymentRow, SpendSummary } from "../../../lib/messages";
import { testCurrency } from "../../../lib/wallet/test-money";
import { waitUntil } from "./wait";
import { DEFAULT_PASSWORD, grantOriginBudget, useDemoChain, type WalletCall } from "./wallet-setup";

/**
 * The payment checks both browsers run: each file builds a PaymentRig from its
 * own browser driver, and these functions hold Chromium and Firefox to the
 * very same expectations.
 */

/**
 * A tab the test drives: evaluate a string expression (promises awaited),
 * click a button by its text, read an element's text by its data-testid
 * (both wait for the element).
 */
export interface Tab {
  evaluate(expression: string): Promise<unknown>;
  click(buttonName: string): Promise<void>;
  text(testId: string): Promise<string | null>;
}

export interface PaymentRig {
  demo: Demo;
  /** The demo agent page. */
  agent: Tab;
  /** The payer address the wallet imported. */
  payer: Address;
  wallet: WalletCall;
  /** Resolves with the next confirmation window (start before the click that opens it). */
  nextConfirmWindow(): Promise<Tab>;
  /** How many confirmation windows opened since the browser started. */
  confirmWindowsOpened(): number;
}

export interface PaidPath {
  name: string;
  button: string;
  resultId: string;
  price: bigint;
  /** Asked in the window even under a budget: a confirmation elicited on no call. */
  asksUnderBudget?: true;
  assertPaid(result: unknown): void;
  assertUnpaid(result: unknown): void;
}

interface HttpResult {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}
interface McpResult {
  ok: boolean;
  result?: { isError?: boolean; content?: { type: string; text?: string }[] };
  error?: { code?: number; message?: string; data?: unknown };
}

const httpPath = (
  name: string,
  button: string,
  resultId: string,
  price: bigint,
  receiptHeader: string,
): PaidPath => ({
  name,
  button,
  resultId,
  price,
  assertPaid(result) {
    const { status, headers, body } = result as HttpResult;
    assert.equal(status, 200, `${name}: ${JSON.stringify(result)}`);
    assert.ok(headers[receiptHeader], `${name}: no ${receiptHeader} in ${JSON.stringify(headers)}`);
    assert.ok(Array.isArray((body as { results?: unknown }).results), JSON.stringify(body));
  },
  assertUnpaid(result) {
    const { status, headers } = result as HttpResult;
    assert.equal(status, 402, `${name}: ${JSON.stringify(result)}`);
    assert.equal(headers[receiptHeader], undefined);
  },
});

export const mcpPath = (
  name: string,
  button: string,
  resultId: string,
  price: bigint,
): PaidPath => ({
  name,
  button,
  resultId,
  price,
  assertPaid(result) {
    const outcome = result as McpResult;
    assert.equal(outcome.ok, true, `${name}: ${JSON.stringify(result)}`);
    assert.notEqual(outcome.result?.isError, true, `${name}: ${JSON.stringify(result)}`);
    assert.ok(
      outcome.result?.content?.some((c) => c.type === "text" && c.text),
      name,
    );
  },
  assertUnpaid(result) {
    const outcome = result as McpResult;
    assert.equal(outcome.ok, false, `${name}: ${JSON.stringify(result)}`);
    assert.equal(outcome.error?.code, -32402, `${name}: ${JSON.stringify(result)}`);
  },
});

export const PAID_PATHS: PaidPath[] = [
  httpPath(
    "Stipendex HTTP",
    "Search (Stipendex)",
    "result-stipendex-http",
    5_000n,
    "Stipendex-Receipt",
  ),
  httpPath("x402 v1", "Search (x402 v1)", "result-x402-v1", 4_000n, "X-PAYMENT-RESPONSE"),
  httpPath("x402 v2", "Search (x402 v2)", "result-x402-v2", 6_000n, "PAYMENT-RESPONSE"),
  mcpPath("MCP -32402 JSON", "Call web_search (JSON)", "result-mcp-json", 5_000n),
  mcpPath("MCP -32402 SSE", "Call web_search (SSE)", "result-mcp-sse", 5_000n),
  mcpPath(
    "MCP -32402 on a resumed stream",
    "Call web_search (SSE, the server closes the stream; the client resumes it)",
    "result-mcp-poll",
    5_000n,
  ),
  {
    ...mcpPath("x402 MCP", "Call x402 tool", "result-mcp-x402", 3_000n),
    assertUnpaid(result) {
      // x402 MCP refuses with a tools/call result flagged isError, not a JSON-RPC error.
      const outcome = result as McpResult;
      assert.equal(outcome.ok, true, JSON.stringify(result));
      assert.equal(outcome.result?.isError, true, JSON.stringify(result));
    },
  },
  mcpPath("elicitation", "Call confirmed tool", "result-mcp-confirmed", 10_000n),
  {
    // The wallet declares elicitation for a client that did not, and answers it unseen.
    ...mcpPath(
      "elicitation, client without elicitation",
      "Call confirmed tool (client without elicitation)",
      "result-mcp-confirmed-plain",
      10_000n,
    ),
    assertPaid(result) {
      mcpPath("", "", "", 0n).assertPaid(result);
      const seen = (result as { undeclaredElicitations?: number }).undeclaredElicitations;
      assert.equal(seen, 0, "the page's client received an elicitation it never declared");
    },
  },
  {
    ...mcpPath(
      "elicitation on the session stream",
      "Call confirmed tool (JSON, asks on the session stream)",
      "result-mcp-confirmed-json",
      10_000n,
    ),
    asksUnderBudget: true,
  },
  // Profile L2: the receiver refuses a Proof that does not embed the Confirmation.
  mcpPath("MCP L2", "Call deep_research (L2)", "result-mcp-l2", 4_000n),
  {
    ...mcpPath(
      "MCP HTTP 402 (seed 004)",
      "Call verify_agent (HTTP 402, seed 004)",
      "result-mcp-402",
      7_000n,
    ),
    assertUnpaid(result) {
      // Unpaid, the page's MCP client meets the server's HTTP 402 itself.
      const outcome = result as McpResult;
      assert.equal(outcome.ok, false, JSON.stringify(result));
      assert.match(outcome.error?.message ?? "", /402/, JSON.stringify(result));
    },
  },
];

export function pathNamed(name: string): PaidPath {
  const path = PAID_PATHS.find((p) => p.name === name);
  assert.ok(path, `no paid path named ${name}`);
  return path;
}

/** Everything a payment may change: history, spend, balances. */
export interface Snapshot {
  rows: PaymentRow[];
  spend: SpendSummary[];
  payee: bigint;
  payer: bigint;
  /** What the wallet's popup says the payer can still spend of the demo token. */
  spendable: bigint;
}

export async function snapshot(rig: PaymentRig, origin: string): Promise<Snapshot> {
  const [{ rows }, spend, payee, payer, spendable] = await Promise.all([
    rig.wallet({
      method: "ui_listPayments",
      params: { filter: {}, offset: 0, limit: 500 },
    }),
    rig.wallet({ method: "ui_getSpend", params: { origin } }),
    rig.demo.chain.balanceOf(rig.demo.chain.accounts.payee.address),
    rig.demo.chain.balanceOf(rig.payer),
    walletSpendable(rig),
  ]);
  return { rows, spend, payee, payer, spendable };
}

/** The demo token's balance as the wallet reads it from the demo chain, less what is signed and uncollected. */
async function walletSpendable(rig: PaymentRig): Promise<bigint> {
  const { address, balances } = await rig.wallet({ method: "ui_getBalances", params: undefined });
  assert.equal(address.toLowerCase(), rig.payer.toLowerCase());
  const token = rig.demo.chain.token.address.toLowerCase();
  const row = balances.find(
    (b) => b.network === `eip155:${rig.demo.chain.chainId}` && b.asset.toLowerCase() === token,
  );
  assert.ok(row?.amount !== undefined, `the wallet read no demo token balance: ${row?.problem}`);
  return BigInt(row.amount) - BigInt(row.pending);
}

/** Rows recorded since `before`, newest first, once each has left the transient states. */
export async function newRows(
  rig: PaymentRig,
  before: Snapshot,
  count: number,
  settledState: PaymentRow["state"],
): Promise<PaymentRow[]> {
  const known = new Set(before.rows.map((r) => r.id));
  let rows: PaymentRow[] = [];
  const fresh = async () => {
    const { rows: all } = await rig.wallet({
      method: "ui_listPayments",
      params: { filter: {}, offset: 0, limit: 500 },
    });
    rows = all.filter((r) => !known.has(r.id));
  };
  // The hook reports the receipt after the page has its answer: poll briefly for it.
  await pollUntil(async () => {
    await fresh();
    return rows.length >= count && rows.every((r) => r.state === settledState);
  }, `${count} new payment(s) in state ${settledState}`);
  assert.equal(rows.length, count, JSON.stringify(rows));
  return rows;
}

async function pollUntil(check: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  let done = false;
  let running = false;
  const tick = () => {
    if (!running) {
      running = true;
      void check().then(
        (ok) => {
          done = ok;
          running = false;
        },
        () => {
          running = false;
        },
      );
    }
    return done;
  };
  await waitUntil(tick, what, timeoutMs, 100);
}

/** Clicks an agent button and returns what its result panel shows once done. */
export async function runAgentButton(agent: Tab, path: PaidPath): Promise<unknown> {
  await agent.click(path.button);
  const selector = JSON.stringify(`[data-testid="${path.resultId}"]`);
  const expression = `(() => { const e = document.querySelector(${selector}); return e && e.getAttribute("data-state") === "done" ? e.textContent : null; })()`;
  let text: unknown = null;
  await pollUntil(
    async () => {
      text = await agent.evaluate(expression);
      return typeof text === "string";
    },
    `${path.name}: the agent page's result`,
    30_000,
  );
  return JSON.parse(text as unknown as string);
}

/** The chain and the wallet's books after one payment of `price` settled. */
export async function assertSettled(
  rig: PaymentRig,
  origin: string,
  before: Snapshot,
  prices: bigint[],
): Promise<PaymentRow[]> {
  const rows = await newRows(rig, before, prices.length, "settled");
  for (const row of rows) assert.equal(row.origin, origin);
  assert.deepEqual(rows.map((r) => BigInt(r.amount.atomic)).sort(), [...prices].sort());
  const total = prices.reduce((a, b) => a + b, 0n);
  const after = await snapshot(rig, origin);
  assert.equal(after.payee - before.payee, total, "payee balance up by exactly the price");
  assert.equal(before.payer - after.payer, total, "payer balance down by exactly the price");
  assert.equal(before.spendable - after.spendable, total, "the wallet's balance down by the price");
  assert.equal(
    after.spendable,
    after.payer,
    "the wallet's balance is the chain's, nothing pending",
  );
  // The receipt's settlement, checked on the demo chain by the wallet in the background.
  for (const row of rows) {
    await pollUntil(async () => {
      const detail = await rig.wallet({ method: "ui_getPayment", params: { id: row.id } });
      return detail.settlementCheck?.status === "confirmed";
    }, `payment ${row.id}: its settlement confirmed on chain`);
  }
  return rows;
}

/** Approve in the confirmation window; the page gets the paid answer; receipt and tokens as priced. */
export async function payThroughWindow(rig: PaymentRig, origin: string, path: PaidPath) {
  const before = await snapshot(rig, origin);
  const opened = rig.confirmWindowsOpened();
  const [result] = await Promise.all([
    runAgentButton(rig.agent, path),
    rig.nextConfirmWindow().then((window) => window.click("Approve")),
  ]);
  path.assertPaid(result);
  await assertSettled(rig, origin, before, [path.price]);
  // Elicitation: the -32402 that follows is paid on the elicited Confirmation, without a second window.
  assert.equal(rig.confirmWindowsOpened() - opened, 1);
  assert.deepEqual(await rig.wallet({ method: "ui_listPending", params: undefined }), []);
}

/** Today's spend over all sites in test USD (the demo chain's tokens). */
function todaySpent(spend: SpendSummary[]): bigint {
  return BigInt(spend.find((summary) => summary.currency === testCurrency("USD"))?.today ?? "0");
}

/**
 * A receiver that refuses a payment it was sent (the demo's `?refuse=` switch): history
 * keeps its reason and the charge stands; once the authorization's window has passed on
 * chain unused, history says expired, not charged, and today's spend is what it was.
 */
export async function refusedThenReleased(rig: PaymentRig, origin: string) {
  const before = await snapshot(rig, origin);
  const url = `${rig.demo.urls.stipendex}/api/search?q=refused&refuse=insufficient_funds`;
  const [status] = await Promise.all([
    rig.agent.evaluate(`fetch(${JSON.stringify(url)}).then((response) => response.status)`),
    rig.nextConfirmWindow().then((window) => window.click("Approve")),
  ]);
  assert.equal(status, 402, "the page gets the receiver's refusal");
  const [refused] = await newRows(rig, before, 1, "failed");
  assert.ok(refused);
  assert.match(refused.reason ?? "", /does not hold enough of the token.*stays charged/);
  const charged = await rig.wallet({ method: "ui_getSpend", params: { origin } });
  assert.equal(todaySpent(charged) - todaySpent(before.spend), 5_000n, "charged while collectable");
  assert.equal(await rig.demo.chain.balanceOf(rig.payer), before.payer, "nothing moved");

  // Past the window by the chain's clock at a finalized block (the demo chain finalizes two
  // blocks behind its head), then the wallet's check (its alarm, or history opening).
  await new Promise((resolve) => setTimeout(resolve, (REFUSED_WINDOW_SECONDS + 1) * 1000));
  await rig.demo.chain.testClient.mine({ blocks: 3 });
  await rig.wallet({ method: "ui_checkSettlements", params: undefined });
  const { rows } = await rig.wallet({
    method: "ui_listPayments",
    params: { filter: {}, offset: 0, limit: 500 },
  });
  const released = rows.find((row) => row.id === refused.id);
  assert.equal(released?.state, "expired");
  assert.match(released?.reason ?? "", /^Expired — not charged/);
  const after = await rig.wallet({ method: "ui_getSpend", params: { origin } });
  assert.equal(todaySpent(after), todaySpent(before.spend), "today's spend is back to what it was");
}

/** What the site spent in test USD, the currency the demo chain's tokens count in. */
function siteSpent(spend: SpendSummary[]): bigint {
  const test = spend.find((summary) => summary.currency === testCurrency("USD"));
  return BigInt(test?.origin?.spent ?? "0");
}

/** Under a budget: no window, paid, and the origin's spend grows by the price. */
export async function payAutoApproved(rig: PaymentRig, origin: string, path: PaidPath) {
  const before = await snapshot(rig, origin);
  const opened = rig.confirmWindowsOpened();
  path.assertPaid(await runAgentButton(rig.agent, path));
  await assertSettled(rig, origin, before, [path.price]);
  assert.equal(rig.confirmWindowsOpened(), opened, "no confirmation window");
  const after = await rig.wallet({ method: "ui_getSpend", params: { origin } });
  // Micro test-USD from 6-decimal USDC atomic units: the same number (the demo chain is a testnet).
  assert.equal(siteSpent(after) - siteSpent(before.spend), path.price);
}

/**
 * Under a budget with the wallet locked: the window asks to unlock, saying the budget pays
 * it, and unlocking pays it with no Approve (as the window's password field does).
 */
export async function payOnUnlock(rig: PaymentRig, origin: string, path: PaidPath) {
  const before = await snapshot(rig, origin);
  await rig.wallet({ method: "ui_lock", params: undefined });
  const confirm = rig.nextConfirmWindow();
  const paying = runAgentButton(rig.agent, path);
  const window = await confirm;
  assert.match((await window.text("paid-on-unlock")) ?? "", /unlocking the wallet pays it/);
  await rig.wallet({ method: "ui_unlock", params: { password: DEFAULT_PASSWORD } });
  path.assertPaid(await paying);
  await assertSettled(rig, origin, before, [path.price]);
  const [row] = await newRows(rig, before, 1, "settled");
  const detail = await rig.wallet({ method: "ui_getPayment", params: { id: row?.id ?? "" } });
  const confirmation = detail.objects.find((object) => object.kind === "confirmation");
  assert.equal(confirmation?.claims.mode, "policy", "approved by the budget, not by a click");
  assert.deepEqual(await rig.wallet({ method: "ui_listPending", params: undefined }), []);
}

/** Decline in the window: the page gets the original price, nothing signed, charged or moved. */
export async function declineThroughWindow(rig: PaymentRig, origin: string, path: PaidPath) {
  const before = await snapshot(rig, origin);
  const [result] = await Promise.all([
    runAgentButton(rig.agent, path),
    rig.nextConfirmWindow().then((window) => window.click("Decline")),
  ]);
  path.assertUnpaid(result);
  await assertNothingSigned(rig, origin, before, "declined");
}

/**
 * After the page listed the tools (the wallet keeps their announced prices), a
 * Quote above its tool's price is flagged in the window beside that price.
 */
export async function flagAboveHint(rig: PaymentRig, origin: string) {
  await runAgentButton(rig.agent, mcpPath("tools/list", "List tools", "result-tools", 0n));
  const surge = mcpPath("surge", "Call surge-priced tool (SSE)", "result-mcp-surge", 20_000n);
  const before = await snapshot(rig, origin);
  const [result] = await Promise.all([
    runAgentButton(rig.agent, surge),
    rig.nextConfirmWindow().then(async (window) => {
      assert.match((await window.text("price-hint")) ?? "", /announced \u2068?0\.005 USD/);
      const flagged = await window.evaluate(
        `document.querySelector('[data-warning="above-price-hint"]') !== null`,
      );
      assert.equal(flagged, true, "the window flags a Quote above its tool's announced price");
      await window.click("Decline");
    }),
  ]);
  surge.assertUnpaid(result);
  await assertNothingSigned(rig, origin, before, "declined");
}

/** Nothing charged (spend), nothing moved (balances); new rows, if any, in `state` with no proof. */
export async function assertNothingSigned(
  rig: PaymentRig,
  origin: string,
  before: Snapshot,
  state?: PaymentRow["state"],
) {
  const rows = state ? await newRows(rig, before, 1, state) : [];
  for (const row of rows) {
    const detail = await rig.wallet({ method: "ui_getPayment", params: { id: row.id } });
    const kinds = detail.objects.map((o) => o.kind);
    assert.ok(!kinds.includes("proof") && !kinds.includes("x402-payment"), kinds.join());
  }
  const after = await snapshot(rig, origin);
  if (!state) assert.deepEqual(after.rows, before.rows, "no payment recorded");
  assert.deepEqual(after.spend, before.spend);
  assert.equal(after.payee, before.payee);
  assert.equal(after.payer, before.payer);
}

/** The request its caller gave up is declined as withdrawn by `who`, unsigned, and nothing waits in the window. */
export async function assertWithdrawn(
  rig: PaymentRig,
  origin: string,
  before: Snapshot,
  who: "The site" | "The desktop app",
) {
  const [row] = await newRows(rig, before, 1, "declined");
  assert.equal(row?.reason, `${who} withdrew its request before you decided`);
  await assertNothingSigned(rig, origin, before, "declined");
  assert.deepEqual(await rig.wallet({ method: "ui_listPending", params: undefined }), []);
}

/** Five parallel paid fetches: one window queues them, each approval pays its own call. */
export async function payFiveInParallel(rig: PaymentRig, origin: string) {
  const before = await snapshot(rig, origin);
  const opened = rig.confirmWindowsOpened();
  const confirm = rig.nextConfirmWindow();
  const queries = ["one", "two", "three", "four", "five"];
  const results = rig.agent.evaluate(
    `Promise.all(${JSON.stringify(queries)}.map((q) => agent.fetchApi(agent.config.stipendex, q)))`,
  ) as Promise<HttpResult[]>;
  const window = await confirm;
  await pollUntil(
    async () =>
      (await rig.wallet({ method: "ui_listPending", params: undefined })).length === queries.length,
    "all five approvals to be queued",
  );
  const position = `document.querySelector('[data-testid="queue-position"]')?.textContent`;
  // What the window last showed goes into the failure, should it never show the whole queue.
  let shown: unknown;
  await pollUntil(async () => {
    shown = await window.evaluate(position);
    return shown === `1 of ${queries.length}`;
  }, "the window to show the queue").catch((error: unknown) => {
    throw new Error(
      `${error instanceof Error ? error.message : error}; it showed ${JSON.stringify(shown)}`,
    );
  });
  for (let left = queries.length; left > 0; left--) {
    await pollUntil(async () => {
      const shown = await window.evaluate(position);
      return left === 1 ? shown === undefined : shown === `1 of ${left}`;
    }, `the window to show ${left} waiting`);
    await window.click("Approve");
  }
  const answers = await results;
  assert.equal(rig.confirmWindowsOpened() - opened, 1, "one window for the whole queue");
  answers.forEach((answer, i) => {
    assert.equal(answer.status, 200, JSON.stringify(answer));
    assert.equal((answer.body as { query?: string }).query, queries[i], JSON.stringify(answer));
  });
  await assertSettled(
    rig,
    origin,
    before,
    queries.map(() => 5_000n),
  );
}

/** One browser's side of the Payments suite: the wallet set up and the demo agent page open. */
export interface PaymentBrowser {
  agent: Tab;
  wallet: WalletCall;
  /** Resolves with the next confirmation window (start before the click that opens it). */
  nextConfirmWindow(): Promise<Tab>;
  /** How many confirmation windows opened since the agent page was opened. */
  confirmWindowsOpened(): number;
  close(): Promise<void>;
}

/**
 * Inside a suite: starts the demo and, through `open`, one browser on its
 * agent page before the tests, and stops both after. The function returned
 * gives the rig, the browser and the agent page's origin, or fails the test
 * when the browser did not start.
 */
export function demoRig<B extends PaymentBrowser>(
  browserName: string,
  timeoutMs: number,
  open: (demo: Demo, payerKey: string) => Promise<B>,
): () => { rig: PaymentRig; browser: B; origin: string } {
  let demo: Demo | undefined;
  let browser: B | undefined;
  let rig: PaymentRig | undefined;
  let origin = "";
  before(
    async () => {
      demo = await startDemo();
      const payer = demo.chain.accounts.payers[0];
      assert.ok(payer, "the demo chain has no payer");
      browser = await open(demo, payer.privateKey);
      origin = new URL(demo.urls.agent).origin;
      rig = { demo, payer: payer.address, ...browser };
      await useDemoChain(browser.wallet, demo.chain);
    },
    { timeout: timeoutMs },
  );
  after(async () => {
    await Promise.allSettled([browser?.close(), demo?.stop()]);
  });
  return () => {
    assert.ok(rig && browser, `${browserName} did not start`);
    return { rig, browser, origin };
  };
}

/**
 * Registers the Payments checks for one browser. `open` launches it, sets
 * the wallet up with `payerKey` and opens the demo's agent page (closing the
 * browser itself if that fails).
 */
export function describePayments(
  browserName: string,
  timeoutMs: number,
  open: (demo: Demo, payerKey: string) => Promise<PaymentBrowser>,
): void {
  describe(`Payments in ${browserName}`, { timeout: timeoutMs }, () => {
    const get = demoRig(browserName, timeoutMs, open);

    for (const path of PAID_PATHS) {
      it(`${path.name}: approved in the confirmation window, paid and settled`, () =>
        payThroughWindow(get().rig, get().origin, path));
    }

    for (const name of ["Stipendex HTTP", "MCP -32402 JSON", "x402 MCP"]) {
      it(`${name}: declined, the page gets the original price and nothing is signed`, () =>
        declineThroughWindow(get().rig, get().origin, pathNamed(name)));
    }

    it("five parallel paid calls queue in one window and each gets its own answer", () =>
      payFiveInParallel(get().rig, get().origin));

    it("a Quote above the price its tool announced is flagged in the window", () =>
      flagAboveHint(get().rig, get().origin));

    it("a payment the receiver refuses keeps its reason, stays charged, and is released once it expires unused", () =>
      refusedThenReleased(get().rig, get().origin));

    describe("under a budget", () => {
      before(() =>
        grantOriginBudget(get().rig.wallet, get().origin, {
          amount: "1000000",
          autoApproveUpTo: "20000",
        }),
      );

      it("Stipendex HTTP, wallet locked: unlocking in the window pays it under the budget", () =>
        payOnUnlock(get().rig, get().origin, pathNamed("Stipendex HTTP")));

      for (const path of PAID_PATHS) {
        if (path.asksUnderBudget) {
          it(`${path.name}: asked all the same (no call binds it), paid once approved`, () =>
            payThroughWindow(get().rig, get().origin, path));
        } else {
          it(`${path.name}: auto-approved, paid and settled`, () =>
            payAutoApproved(get().rig, get().origin, path));
        }
      }
    });
  });
}
