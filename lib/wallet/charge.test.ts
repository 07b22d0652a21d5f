import { describe, expect, it } from "vitest";
import { BASE_SEPOLIA_USDC, USDC_AS_USD } from "../../tests/unit-support/payments/offers";
import type { ChargeRecord, PaymentRecord } from "../db/schema";
import { chargedSlots, chargeTarget, planCharge } from "./charge";
import { dailySlot } from "./limits";
import { DAY_MS } from "./periods";
import { testCurrency } from "./test-money";

// Base Sepolia is a testnet: its USDC counts as test USD.
const TEST_USD = testCurrency("USD");

const NOW = Date.parse("2026-11-30T12:00:00Z");
const AGENT = "https://agent.example";
const payment = {
  id: "p1",
  createdAt: NOW,
  updatedAt: NOW,
  receiver: "https://api.example",
  state: "approved",
  origin: AGENT,
  network: "eip155:84532",
  asset: BASE_SEPOLIA_USDC,
  amount: "6000",
  decimals: 6,
  approvedBy: "policy",
} as unknown as PaymentRecord;
const budgeted = {
  ...USDC_AS_USD,
  origins: {
    [AGENT]: {
      currency: TEST_USD,
      amount: 10_000n,
      period: "day" as const,
      autoApproveUpTo: 10_000n,
      perCallMax: 10_000n,
    },
  },
};

describe("chargeTarget", () => {
  it("counts the payment in its budget currency, under every sum key it adds to", () => {
    const target = chargeTarget(payment, USDC_AS_USD, NOW);
    expect(target).toMatchObject({ ok: true, currency: TEST_USD, micro: 6000n });
    if (target.ok) {
      expect(target.slots.map((slot) => slot.key)).toContain(
        `origin:${AGENT}:${TEST_USD}:day:2026-11-30`,
      );
    }
  });

  it("refuses an asset the settings do not count", () => {
    const target = chargeTarget({ ...payment, network: "eip155:1" }, USDC_AS_USD, NOW);
    expect(target).toMatchObject({
      ok: false,
      error: { name: "WalletError", code: "charge-not-allowed" },
    });
  });
});

describe("planCharge", () => {
  const target = chargeTarget(payment, budgeted, NOW);
  if (!target.ok) throw new Error("the fixture should be countable");
  const siteDay = `origin:${AGENT}:${TEST_USD}:day:2026-11-30`;

  it("adds the payment to every sum when every cap has room", () => {
    const planned = planCharge(payment, target, new Map([[siteDay, 4000n]]), budgeted, NOW);
    if ("error" in planned) return expect.unreachable(planned.error.message);
    expect(planned.sums.get(siteDay)).toBe(10_000n);
    expect(planned.charge).toMatchObject({ currency: TEST_USD, micro: "6000", chargedAt: NOW });
  });

  it("refuses the policy past the site's budget, but lets the person's own approval through", () => {
    const spent = new Map([[siteDay, 4001n]]);
    const planned = planCharge(payment, target, spent, budgeted, NOW);
    expect("error" in planned && planned.error).toMatchObject({
      name: "WalletError",
      code: "budget-exhausted",
    });
    const asked = planCharge({ ...payment, approvedBy: "person" }, target, spent, budgeted, NOW);
    expect("charge" in asked).toBe(true);
  });
});

describe("chargedSlots", () => {
  it("names the very sums the charge was added to, from its origin, currency and time", () => {
    const target = chargeTarget(payment, USDC_AS_USD, NOW);
    if (!target.ok) throw new Error("not chargeable");
    const planned = planCharge(payment, target, new Map(), USDC_AS_USD, NOW);
    if ("error" in planned) throw planned.error;
    expect(chargedSlots(payment.origin, planned.charge)).toEqual(target.slots);
    expect([...planned.sums.keys()]).toEqual(target.slots.map((slot) => slot.key));
  });

  it("takes the spend history from the day the charge names, else from the clock's day", () => {
    const charge = { currency: TEST_USD, micro: "6000", chargedAt: NOW };
    const laterDay = { [`global:${TEST_USD}:day:2026-11-30`]: "2026-12-01" };
    const history = (named: Partial<ChargeRecord>) =>
      chargedSlots(AGENT, { ...charge, ...named }).find(({ holds }) => holds === "history")?.key;
    expect(history({ laterPeriods: laterDay, historyDay: "2026-12-01" })).toBe(
      dailySlot(TEST_USD, NOW + DAY_MS).key,
    );
    // Stored before the history followed the day cap: counted in the clock's day.
    expect(history({ laterPeriods: laterDay })).toBe(dailySlot(TEST_USD, NOW).key);
  });
});
