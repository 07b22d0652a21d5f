import { describe, expect, it } from "vitest";
import {
  budgetExhaustedReason,
  capLimits,
  exceededCap,
  remainingAfter,
  resolveCharge,
  sumKeysToCharge,
  sumSlotsToCharge,
} from "./limits";
import type { PolicySettings } from "./policy-settings";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const WETH = "0x4200000000000000000000000000000000000006";
const AGENT = "https://agent.example";
const NOW = Date.parse("2026-11-30T10:00:00Z"); // a Monday

const settings: PolicySettings = {
  globalCaps: { USD: { day: 10_000_000n, month: 100_000_000n } },
  origins: {
    [AGENT]: {
      currency: "USD",
      amount: 2_000_000n,
      period: "week",
      autoApproveUpTo: 50_000n,
      perCallMax: 1_000_000n,
    },
  },
  receivers: { allow: [], deny: [] },
  networks: ["eip155:8453"],
  assets: [
    { network: "eip155:8453", asset: USDC, decimals: 6, symbol: "USDC", currency: "USD" },
    { network: "eip155:8453", asset: WETH, decimals: 18, symbol: "WETH", currency: "ETH" },
  ],
};

describe("resolveCharge", () => {
  it("counts an allowed asset in its currency's micro units (address case-insensitive)", () => {
    const lower = `0x${USDC.slice(2).toLowerCase()}` as const;
    expect(
      resolveCharge(settings, { network: "eip155:8453", asset: lower, amount: 5000n, decimals: 6 }),
    ).toMatchObject({ ok: true, currency: "USD", micro: 5000n });
    expect(
      resolveCharge(settings, {
        network: "eip155:8453",
        asset: WETH,
        amount: 10n ** 15n,
        decimals: 18,
      }),
    ).toMatchObject({ ok: true, currency: "ETH", micro: 1000n });
  });

  it("names the rule that stops an unknown network, asset, wrong decimals or a zero amount", () => {
    const ok = { network: "eip155:8453", asset: USDC, amount: 1n, decimals: 6 } as const;
    expect(resolveCharge(settings, { ...ok, network: "eip155:1" })).toMatchObject({
      ok: false,
      rule: "network-not-allowed",
      reason: "network eip155:1 is not among the allowed networks",
    });
    expect(
      resolveCharge(settings, { ...ok, asset: "0x0000000000000000000000000000000000000001" }),
    ).toMatchObject({
      rule: "asset-not-allowed",
    });
    expect(resolveCharge(settings, { ...ok, decimals: 18 })).toMatchObject({
      rule: "asset-decimals-mismatch",
      reason: "the offer says USDC has 18 decimals; it has 6",
    });
    expect(resolveCharge(settings, { ...ok, amount: 0n })).toMatchObject({
      rule: "amount-not-positive",
    });
  });
});

describe("capLimits + sumKeysToCharge", () => {
  it("lists global day/month caps and the origin budget for its period", () => {
    expect(capLimits(settings, AGENT, "USD", NOW)).toEqual([
      {
        scope: "global",
        period: "day",
        currency: "USD",
        rule: "global-day-cap",
        slot: {
          row: "global:USD",
          holds: "all-sites",
          currency: "USD",
          period: "day",
          at: "2026-11-30",
          key: "global:USD:day:2026-11-30",
        },
        cap: 10_000_000n,
      },
      {
        scope: "global",
        period: "month",
        currency: "USD",
        rule: "global-month-cap",
        slot: {
          row: "global:USD",
          holds: "all-sites",
          currency: "USD",
          period: "month",
          at: "2026-11",
          key: "global:USD:month:2026-11",
        },
        cap: 100_000_000n,
      },
      {
        scope: "origin",
        period: "week",
        currency: "USD",
        rule: "origin-budget",
        slot: {
          row: `origin:${AGENT}:USD`,
          holds: "site",
          currency: "USD",
          period: "week",
          at: "2026-11-30",
          key: `origin:${AGENT}:USD:week:2026-11-30`,
        },
        cap: 2_000_000n,
      },
    ]);
  });

  it("has no origin limit for an unknown origin or another currency, and no absent caps", () => {
    expect(capLimits(settings, "https://new.example", "USD", NOW).map((l) => l.rule)).toEqual([
      "global-day-cap",
      "global-month-cap",
    ]);
    expect(capLimits(settings, AGENT, "ETH", NOW)).toEqual([]);
  });

  it("charges every period sum of the origin and the global day and month", () => {
    expect(sumKeysToCharge(AGENT, "USD", NOW)).toEqual([
      "global:USD:day:2026-11-30",
      "global:USD:month:2026-11",
      `origin:${AGENT}:USD:day:2026-11-30`,
      `origin:${AGENT}:USD:week:2026-11-30`,
      `origin:${AGENT}:USD:month:2026-11`,
      `origin:${AGENT}:USD:none:all`,
      "daily:USD:2026-11-30:day:2026-11-30",
    ]);
    // Every sum a cap reads is among the sums a charge writes.
    const written = sumSlotsToCharge(AGENT, "USD", NOW);
    for (const limit of capLimits(settings, AGENT, "USD", NOW))
      expect(written).toContainEqual(limit.slot);
    // Three rows: all sites, the site, and the day of the spend history.
    expect(new Set(written.map((slot) => slot.row))).toEqual(
      new Set(["global:USD", `origin:${AGENT}:USD`, "daily:USD:2026-11-30"]),
    );
  });
});

describe("exceededCap + remainingAfter + budgetExhaustedReason", () => {
  const limits = capLimits(settings, AGENT, "USD", NOW);
  const weekKey = `origin:${AGENT}:USD:week:2026-11-30`;

  it("allows a payment that exactly fills a cap and refuses one unit more", () => {
    const spent = new Map([[weekKey, 1_500_000n]]);
    expect(exceededCap(limits, spent, 500_000n)).toBeUndefined();
    expect(exceededCap(limits, spent, 500_001n)).toMatchObject({ scope: "origin", period: "week" });
  });

  it("reports what each limit has left after the payment, never below zero", () => {
    const spent = new Map([
      [weekKey, 1_500_000n],
      ["global:USD:day:2026-11-30", 9_000_000n],
    ]);
    expect(remainingAfter(limits, spent, 200_000n)).toEqual([
      { scope: "global", period: "day", currency: "USD", micro: 800_000n },
      { scope: "global", period: "month", currency: "USD", micro: 99_800_000n },
      { scope: "origin", period: "week", currency: "USD", micro: 300_000n },
    ]);
    expect(remainingAfter(limits, spent, 5_000_000n)[0]?.micro).toBe(0n);
  });

  it("words an overrun as 'budget exhausted' with the cap, the spent sum and the price", () => {
    const spent = new Map([[weekKey, 1_990_000n]]);
    const limit = exceededCap(limits, spent, 20_000n);
    expect(limit).toBeDefined();
    if (limit === undefined) return;
    expect(budgetExhaustedReason(limit, spent, 20_000n)).toBe(
      "budget exhausted: this site's weekly budget is 2 USD, 1.99 USD spent, this payment is 0.02 USD",
    );
  });
});
