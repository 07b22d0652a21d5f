import { describe, expect, it } from "vitest";
import { resolveCharge, sumKeysToCharge } from "./limits";
import { decidePayment, type PolicyInput } from "./policy";
import type { PolicySettings } from "./policy-settings";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const AGENT = "https://agent.example";
const API = "https://api.example";

function settings(overrides: Partial<PolicySettings> = {}): PolicySettings {
  return {
    globalCaps: { USD: { day: 5_000_000n, month: 20_000_000n } },
    origins: {
      [AGENT]: {
        currency: "USD",
        amount: 1_000_000n,
        period: "day",
        autoApproveUpTo: 10_000n,
        perCallMax: 500_000n,
      },
    },
    receivers: { allow: [], deny: [] },
    networks: ["eip155:8453"],
    assets: [{ network: "eip155:8453", asset: USDC, decimals: 6, symbol: "USDC", currency: "USD" }],
    ...overrides,
  };
}

function input(amount: bigint, overrides: Partial<PolicyInput> = {}): PolicyInput {
  return {
    origin: AGENT,
    receiver: API,
    option: { network: "eip155:8453", asset: USDC, amount, decimals: 6 },
    spent: new Map(),
    now: Date.parse("2026-11-30T12:00:00Z"),
    ...overrides,
  };
}

/** Sums as the ledger would hold them after paying `micro` at `at`. */
function spentAfter(micro: bigint, at: number, origin = AGENT): Map<string, bigint> {
  return new Map(sumKeysToCharge(origin, "USD", at).map((key) => [key, micro]));
}

describe("decidePayment", () => {
  it("auto-approves a small payment within the origin's budget", () => {
    const decision = decidePayment(settings(), input(5000n));
    expect(decision).toEqual({
      action: "auto",
      rule: "origin-auto-approve",
      reason: `0.005 USD is within what ${AGENT} may spend without asking`,
      remaining: [
        { scope: "global", period: "day", currency: "USD", micro: 4_995_000n },
        { scope: "global", period: "month", currency: "USD", micro: 19_995_000n },
        { scope: "origin", period: "day", currency: "USD", micro: 995_000n },
      ],
    });
  });

  it("auto-approves exactly the threshold and asks one unit above it", () => {
    expect(decidePayment(settings(), input(10_000n)).action).toBe("auto");
    expect(decidePayment(settings(), input(10_001n))).toMatchObject({
      action: "ask",
      rule: "origin-above-auto-approve",
    });
  });

  it("asks instead of paying automatically what the known balance cannot cover; an unknown one is no reason", () => {
    expect(decidePayment(settings(), input(5_000n, { available: 5_000n })).action).toBe("auto");
    expect(decidePayment(settings(), input(5_000n, { available: 4_999n }))).toMatchObject({
      action: "ask",
      rule: "insufficient-balance",
    });
    expect(decidePayment(settings(), input(5_000n)).action).toBe("auto");
  });

  it("never auto-approves for a new origin", () => {
    const decision = decidePayment(settings(), input(1n, { origin: "https://new.example" }));
    expect(decision).toMatchObject({ action: "ask", rule: "origin-no-budget" });
    expect(decision.reason).toContain("https://new.example has no USD budget");
    expect(decision.remaining).toEqual([
      { scope: "global", period: "day", currency: "USD", micro: 4_999_999n },
      { scope: "global", period: "month", currency: "USD", micro: 19_999_999n },
    ]);
  });

  it("refuses a denied receiver, before anything else", () => {
    const decision = decidePayment(settings({ receivers: { allow: [], deny: [API] } }), input(1n));
    expect(decision).toMatchObject({ action: "refuse", rule: "receiver-denied" });
    expect(decision.reason).toBe(`receiver ${API} is on your deny list`);
  });

  it("asks for a receiver outside a non-empty allow list, and auto-approves one inside", () => {
    const other = { receivers: { allow: ["https://other.example"], deny: [] } };
    expect(decidePayment(settings(other), input(1n))).toMatchObject({
      action: "ask",
      rule: "receiver-not-allowed",
    });
    const listed = { receivers: { allow: [API], deny: [] } };
    expect(decidePayment(settings(listed), input(1n)).action).toBe("auto");
  });

  it("refuses networks and assets that are not allowed", () => {
    expect(
      decidePayment(
        settings(),
        input(1n, { option: { network: "eip155:1", asset: USDC, amount: 1n, decimals: 6 } }),
      ),
    ).toMatchObject({ action: "refuse", rule: "network-not-allowed" });
    const stranger = "0x1111111111111111111111111111111111111111";
    expect(
      decidePayment(
        settings(),
        input(1n, { option: { network: "eip155:8453", asset: stranger, amount: 1n, decimals: 6 } }),
      ),
    ).toMatchObject({ action: "refuse", rule: "asset-not-allowed" });
    expect(
      decidePayment(
        settings(),
        input(1n, { option: { network: "eip155:8453", asset: USDC, amount: 1n, decimals: 18 } }),
      ),
    ).toMatchObject({ action: "refuse", rule: "asset-decimals-mismatch" });
  });

  it("refuses a zero amount", () => {
    expect(decidePayment(settings(), input(0n))).toMatchObject({
      action: "refuse",
      rule: "amount-not-positive",
    });
  });

  it("refuses above the per-call maximum", () => {
    const decision = decidePayment(settings(), input(500_001n));
    expect(decision).toMatchObject({ action: "refuse", rule: "origin-per-call-max" });
    expect(decision.reason).toBe(
      `0.500001 USD is above the per-call maximum of 0.5 USD for ${AGENT}`,
    );
    expect(decidePayment(settings(), input(500_000n)).action).toBe("ask");
  });

  it("asks the person again when the site's budget is used up, saying so", () => {
    const spent = spentAfter(990_000n, Date.parse("2026-11-30T08:00:00Z"));
    const decision = decidePayment(settings(), input(10_001n, { spent }));
    expect(decision).toMatchObject({ action: "ask", rule: "origin-budget" });
    expect(decision.reason).toMatch(/^budget exhausted: this site's daily budget is 1 USD/);
    // What would be left were the person to approve it: nothing of the site's day.
    expect(decision.remaining.find((limit) => limit.scope === "origin")?.micro).toBe(0n);
    expect(decidePayment(settings(), input(10_000n, { spent })).action).toBe("auto");
  });

  it("refuses over the global day cap even for an origin without a budget", () => {
    const spent = spentAfter(4_999_000n, Date.parse("2026-11-30T08:00:00Z"), "https://b.example");
    expect(
      decidePayment(settings(), input(1001n, { origin: "https://new.example", spent })),
    ).toMatchObject({
      action: "refuse",
      rule: "global-day-cap",
    });
  });

  it("refuses over the global month cap", () => {
    const spent = new Map([["global:USD:month:2026-11", 19_999_999n]]);
    expect(decidePayment(settings(), input(2n, { spent }))).toMatchObject({
      action: "refuse",
      rule: "global-month-cap",
    });
  });

  it("ignores an origin budget in another currency (asks)", () => {
    const eur = settings();
    const budget = eur.origins[AGENT];
    if (budget === undefined) throw new Error("fixture");
    eur.origins[AGENT] = { ...budget, currency: "EUR" };
    expect(decidePayment(eur, input(1n))).toMatchObject({
      action: "ask",
      rule: "origin-no-budget",
    });
  });
});

describe("decidePayment: renewal at period boundaries (UTC)", () => {
  const full = (period: "day" | "week" | "month" | "none") => {
    const s = settings({ globalCaps: {} });
    const budget = s.origins[AGENT];
    if (budget === undefined) throw new Error("fixture");
    s.origins[AGENT] = { ...budget, period, amount: 10_000n };
    return s;
  };
  const decideAt = (
    period: "day" | "week" | "month" | "none",
    spentAtIso: string,
    nowIso: string,
  ) =>
    decidePayment(
      full(period),
      input(1n, { spent: spentAfter(10_000n, Date.parse(spentAtIso)), now: Date.parse(nowIso) }),
    ).action;

  it("renews a daily budget at 00:00:00.000 UTC", () => {
    expect(decideAt("day", "2026-11-30T00:00:00Z", "2026-11-30T23:59:59.999Z")).toBe("ask");
    expect(decideAt("day", "2026-11-30T00:00:00Z", "2026-12-01T00:00:00.000Z")).toBe("auto");
  });

  it("renews a weekly budget on Monday 00:00 UTC", () => {
    // Spent on Monday 2026-11-23; Sunday 2026-11-29 is still that week.
    expect(decideAt("week", "2026-11-23T09:00:00Z", "2026-11-29T23:59:59.999Z")).toBe("ask");
    expect(decideAt("week", "2026-11-23T09:00:00Z", "2026-11-30T00:00:00.000Z")).toBe("auto");
  });

  it("renews a monthly budget on the 1st, in 30/31-day months and in February", () => {
    expect(decideAt("month", "2026-04-01T00:00:00Z", "2026-04-30T23:59:59.999Z")).toBe("ask");
    expect(decideAt("month", "2026-04-01T00:00:00Z", "2026-05-01T00:00:00.000Z")).toBe("auto");
    expect(decideAt("month", "2028-02-01T00:00:00Z", "2028-02-29T23:59:59.999Z")).toBe("ask");
    expect(decideAt("month", "2028-02-01T00:00:00Z", "2028-03-01T00:00:00.000Z")).toBe("auto");
    expect(decideAt("month", "2027-02-01T00:00:00Z", "2027-02-28T23:59:59.999Z")).toBe("ask");
    expect(decideAt("month", "2027-02-01T00:00:00Z", "2027-03-01T00:00:00.000Z")).toBe("auto");
  });

  it("never renews a budget with period 'none'", () => {
    expect(decideAt("none", "2026-01-01T00:00:00Z", "2030-01-01T00:00:00Z")).toBe("ask");
  });

  it("renews the global day cap at midnight UTC and the month cap on the 1st", () => {
    const s = settings({ globalCaps: { USD: { day: 10_000n, month: 15_000n } } });
    const spent = spentAfter(10_000n, Date.parse("2026-11-30T10:00:00Z"), "https://b.example");
    const at = (iso: string) => decidePayment(s, input(1n, { spent, now: Date.parse(iso) }));
    expect(at("2026-11-30T23:59:59.999Z").rule).toBe("global-day-cap");
    expect(at("2026-12-01T00:00:00.000Z").action).toBe("auto");
  });
});

describe("decidePayment: test money and who may hold a budget", () => {
  const budget = {
    currency: "USD",
    amount: 1_000_000n,
    period: "day" as const,
    autoApproveUpTo: 10_000n,
    perCallMax: 500_000n,
  };
  const SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
  const both = settings({
    networks: ["eip155:8453", "eip155:84532"],
    assets: [
      { network: "eip155:8453", asset: USDC, decimals: 6, symbol: "USDC", currency: "USD" },
      {
        network: "eip155:84532",
        asset: SEPOLIA_USDC,
        decimals: 6,
        symbol: "USDC",
        currency: "USD",
      },
    ],
  });
  const onTestnet = (amount: bigint, overrides: Partial<PolicyInput> = {}) =>
    input(amount, {
      option: { network: "eip155:84532", asset: SEPOLIA_USDC, amount, decimals: 6 },
      ...overrides,
    });

  it("counts testnet tokens as test money: never against real USD caps, never under a USD budget", () => {
    const at = Date.parse("2026-11-30T12:00:00Z");
    const realCapUsed = new Map(
      sumKeysToCharge("https://x.example", "USD", at).map((k) => [k, 5_000_000n]),
    );
    // The real day cap is used up, yet test money is not refused by it (and the USD budget does not auto-approve it).
    expect(decidePayment(both, onTestnet(5000n, { spent: realCapUsed }))).toMatchObject({
      action: "ask",
      rule: "origin-no-budget",
    });
    expect(resolveCharge(both, onTestnet(5000n).option)).toMatchObject({ currency: "test USD" });
  });

  it("never pays real money under a rule granted in test money", () => {
    const testBudget = settings({
      ...both,
      origins: { [AGENT]: { ...budget, currency: "test USD" } },
    });
    expect(decidePayment(testBudget, onTestnet(5000n, { origin: AGENT })).action).toBe("auto");
    expect(decidePayment(testBudget, input(5000n)).action).toBe("ask");
  });

  it("gives no automatic payments to plain-http origins other than loopback, even with a budget", () => {
    const http = "http://shop.example";
    const loopback = "http://127.0.0.1:4020";
    const budgets = settings({
      origins: { [http]: budget, [loopback]: budget },
    });
    expect(decidePayment(budgets, input(5000n, { origin: http })).action).toBe("ask");
    expect(decidePayment(budgets, input(5000n, { origin: loopback })).action).toBe("auto");
  });
});

describe("decidePayment: auto-approve only at or below the announced price", () => {
  const hinted = settings();
  const budget = hinted.origins[AGENT];
  if (budget) hinted.origins[AGENT] = { ...budget, withinPriceHint: true };

  it("asks when a price is above its tool's announced price, under a rule that says so", () => {
    expect(decidePayment(hinted, input(5000n, { againstHint: "above" }))).toMatchObject({
      action: "ask",
      rule: "origin-above-price-hint",
    });
    expect(decidePayment(hinted, input(5000n, { againstHint: "within" })).action).toBe("auto");
  });

  it("asks when the tool announced no price it can compare (none, words, another currency)", () => {
    expect(decidePayment(hinted, input(5000n, { againstHint: "none" }))).toMatchObject({
      action: "ask",
      rule: "origin-no-price-hint",
      reason: `no price in USD was announced for this tool: ${AGENT} auto-approves only at or below one`,
    });
  });

  it("asks about a price no tool announced: an HTTP 402, an MCP tool priced by one among them", () => {
    expect(decidePayment(hinted, input(5000n))).toMatchObject({
      action: "ask",
      rule: "origin-no-price-hint",
      reason: `no price in USD was announced for this call: ${AGENT} auto-approves only at or below one`,
    });
  });

  it("ignores the announced price where the rule does not ask for it", () => {
    expect(decidePayment(settings(), input(5000n, { againstHint: "above" })).action).toBe("auto");
    expect(decidePayment(settings(), input(5000n, { againstHint: "none" })).action).toBe("auto");
  });
});

describe("decidePayment: a desktop app's new payee", () => {
  it("asks about an unsigned price to an account the person has not approved for it", () => {
    const decision = decidePayment(settings(), input(5000n, { newPayee: true }));
    expect(decision).toMatchObject({ action: "ask", rule: "origin-new-payee" });
    expect(decision.reason).toMatch(/only once you have approved one payment to it/);
    expect(decidePayment(settings(), input(5000n, { newPayee: false })).action).toBe("auto");
  });

  it("still refuses what it refuses", () => {
    expect(decidePayment(settings(), input(500_001n, { newPayee: true })).action).toBe("refuse");
  });
});

describe("decidePayment: a site framed by another", () => {
  const framer = "https://evil.example";

  it("asks instead of approving under the site's budget when another site is the top page", () => {
    const decision = decidePayment(settings(), input(5000n, { topOrigin: framer }));
    expect(decision).toMatchObject({ action: "ask", rule: "origin-framed" });
    expect(decision.reason).toBe(
      `${AGENT} is inside ${framer}: its budget pays without asking only where it is the page itself`,
    );
  });

  it("still approves on its own when the top page is the site itself, or not known", () => {
    expect(decidePayment(settings(), input(5000n, { topOrigin: AGENT })).action).toBe("auto");
    expect(decidePayment(settings(), input(5000n)).action).toBe("auto");
  });

  it("still refuses what it refuses, framed or not", () => {
    expect(decidePayment(settings(), input(500_001n, { topOrigin: framer }))).toMatchObject({
      action: "refuse",
      rule: "origin-per-call-max",
    });
  });
});

describe("decidePayment: an unsigned price beside a refused Quote", () => {
  it("asks, saying why the Quote was refused, where the budget would pay the price alone", () => {
    const decision = decidePayment(settings(), input(5000n, { quoteRefused: "Quote expired" }));
    expect(decision).toMatchObject({ action: "ask", rule: "quote-refused" });
    expect(decision.reason).toMatch(/signed price was refused \(Quote expired\)/);
    expect(decidePayment(settings(), input(5000n)).action).toBe("auto");
  });

  it("still refuses what it refuses", () => {
    expect(decidePayment(settings(), input(500_001n, { quoteRefused: "forged" })).action).toBe(
      "refuse",
    );
  });
});

describe("decidePayment: a confirmation asked outside any tool call", () => {
  it("asks, where the budget would answer one asked during a call", () => {
    const decision = decidePayment(settings(), input(5000n, { outsideCall: true }));
    expect(decision).toMatchObject({ action: "ask", rule: "elicitation-outside-call" });
    expect(decision.reason).toMatch(/outside any tool call/);
    expect(decidePayment(settings(), input(5000n, { outsideCall: false })).action).toBe("auto");
  });

  it("still refuses what it refuses", () => {
    expect(decidePayment(settings(), input(500_001n, { outsideCall: true })).action).toBe("refuse");
  });
});

describe("decidePayment: an x402 price found only in a tool answer's text", () => {
  it("asks, where the budget would pay the same price the server put in structuredContent", () => {
    const decision = decidePayment(settings(), input(5000n, { priceInToolText: true }));
    expect(decision).toMatchObject({ action: "ask", rule: "price-in-tool-text" });
    expect(decision.reason).toMatch(/passed on from another site/);
    expect(decidePayment(settings(), input(5000n)).action).toBe("auto");
  });

  it("still refuses what it refuses", () => {
    const decision = decidePayment(settings(), input(500_001n, { priceInToolText: true }));
    expect(decision.action).toBe("refuse");
  });
});
