import { describe, expect, it } from "vitest";
import { AGENT, AUTO_BUDGET, seedPayment } from "../../tests/unit-support/payments/test-support";
import { putSums } from "../../tests/unit-support/wallet/put-sums";
import { defaultPolicy, toSettings } from "../background/policy-store";
import { openWalletDb, type PaymentRecord } from "../db/schema";
import { randomId } from "../random-id";
import { dailySlot, type SumSlot, sumSlotsToCharge } from "../wallet/limits";
import { spendPerDay, spendSummaries } from "./spend";

const NOW = Date.UTC(2026, 10, 30, 12);
const DAY = 86_400_000;
// Real USD caps only (no test-money caps), which keeps each expected list to one currency.
const settings = toSettings({
  ...defaultPolicy(),
  globalCaps: { USD: { day: "5000000", month: "50000000" } },
  origins: { [AGENT]: AUTO_BUDGET },
});

/** Running sums only: no payment rows, so whatever is reported came from the sums. */
async function withSums(sums: (readonly [SumSlot | undefined, bigint])[]) {
  const db = openWalletDb(`spend-${randomId()}`);
  for (const [slot, amount] of sums) {
    if (!slot) throw new Error("no such slot");
    await putSums(db, [[slot, amount]], NOW);
  }
  return db;
}

describe("spendSummaries", () => {
  it("reports today, this month and the site's budget from the running sums", async () => {
    const [day, month, originDay] = sumSlotsToCharge(AGENT, "USD", NOW);
    const db = await withSums([
      [day, 1_500_000n],
      [month, 2_500_000n],
      [originDay, 300_000n],
    ]);
    expect(await db.payments.count()).toBe(0);
    expect(await spendSummaries(db, settings, NOW, AGENT)).toEqual([
      {
        currency: "USD",
        today: "1500000",
        month: "2500000",
        dayCap: "5000000",
        monthCap: "50000000",
        origin: { origin: AGENT, spent: "300000", budget: AUTO_BUDGET, remaining: "700000" },
      },
    ]);
  });

  it("reports a site without a budget as spending nothing against none, and no origin when not asked", async () => {
    const db = await withSums([]);
    const [summary] = await spendSummaries(db, settings, NOW, "https://other.example");
    expect(summary?.origin).toEqual({ origin: "https://other.example", spent: "0" });
    const [plain] = await spendSummaries(db, settings, NOW);
    expect(plain).toEqual({
      currency: "USD",
      today: "0",
      month: "0",
      dayCap: "5000000",
      monthCap: "50000000",
    });
  });

  it("reports spend in a currency with no cap row (test money of another token), not one with none now", async () => {
    const [day, month] = sumSlotsToCharge(AGENT, "test EUR", NOW);
    const db = await withSums([
      [day, 20_000n],
      [month, 30_000n],
      // Charged last month only: nothing to show this month.
      [sumSlotsToCharge(AGENT, "test GBP", NOW - 40 * DAY)[1], 9n],
    ]);
    const summaries = await spendSummaries(db, settings, NOW, AGENT);
    expect(summaries.map((s) => s.currency)).toEqual(["USD", "test EUR"]);
    expect(summaries[1]).toEqual({
      currency: "test EUR",
      today: "20000",
      month: "30000",
      // The site's budget is in USD: nothing of it spent in test EUR.
      origin: { origin: AGENT, spent: "0" },
    });
  });

  it("reports a site's budget in a currency with no cap row before anything is spent in it", async () => {
    const db = await withSums([]);
    const eurBudget = toSettings({
      ...defaultPolicy(),
      globalCaps: { USD: { day: "5000000", month: "50000000" } },
      origins: { [AGENT]: { ...AUTO_BUDGET, currency: "test EUR" } },
    });
    const listed = await spendSummaries(db, eurBudget, NOW, AGENT);
    expect(listed.map((s) => s.currency)).toEqual(["USD", "test EUR"]);
    expect(listed[1]?.origin?.budget?.currency).toBe("test EUR");
    // Another site, or none: no budget in it, nothing spent, not listed.
    expect((await spendSummaries(db, eurBudget, NOW)).map((s) => s.currency)).toEqual(["USD"]);
  });

  it("never reports more remaining than zero when a budget is overspent", async () => {
    const db = await withSums([[sumSlotsToCharge(AGENT, "USD", NOW)[2], 2_000_000n]]);
    const [summary] = await spendSummaries(db, settings, NOW, AGENT);
    expect(summary?.origin?.remaining).toBe("0");
  });
});

describe("spendPerDay", () => {
  it("lists each of the last days oldest first from the daily sums", async () => {
    const db = await withSums([
      [dailySlot("USD", NOW), 42n],
      [dailySlot("USD", NOW - 2 * DAY), 7n],
    ]);
    expect(await spendPerDay(db, settings, NOW, 3)).toEqual([
      { day: "2026-11-28", currency: "USD", amount: "7" },
      { day: "2026-11-29", currency: "USD", amount: "0" },
      { day: "2026-11-30", currency: "USD", amount: "42" },
    ]);
  });

  it("lists a currency with no cap row for the days shown when something was spent in it then", async () => {
    const db = await withSums([
      [dailySlot("test EUR", NOW - DAY), 5n],
      // Spent before the days shown: not listed.
      [dailySlot("test GBP", NOW - 10 * DAY), 9n],
    ]);
    await putSums(db, [[sumSlotsToCharge("", "test EUR", NOW - DAY)[0] as SumSlot, 5n]], NOW);
    await putSums(db, [[sumSlotsToCharge("", "test GBP", NOW - 10 * DAY)[0] as SumSlot, 9n]], NOW);
    expect(await spendPerDay(db, settings, NOW, 2)).toEqual([
      { day: "2026-11-29", currency: "USD", amount: "0" },
      { day: "2026-11-30", currency: "USD", amount: "0" },
      { day: "2026-11-29", currency: "test EUR", amount: "5" },
      { day: "2026-11-30", currency: "test EUR", amount: "0" },
    ]);
  });

  it("ends at the later day the budgets count in while the clock is set back, as the day's cap does", async () => {
    // The clock ran ahead into December 1, then was set back to November 30: the all-sites
    // daily sum (and the history with it) counts today's charges in December 1.
    const ahead = Date.UTC(2026, 11, 1, 0, 0, 5);
    const back = Date.UTC(2026, 10, 30, 23, 59, 55);
    const db = await withSums([
      [dailySlot("USD", back), 7n],
      [sumSlotsToCharge(AGENT, "USD", ahead)[0], 30n],
      [dailySlot("USD", ahead), 30n],
    ]);
    const [today] = await spendSummaries(db, settings, back);
    expect(await spendPerDay(db, settings, back, 2)).toEqual([
      { day: "2026-11-30", currency: "USD", amount: "7" },
      { day: "2026-12-01", currency: "USD", amount: today?.today },
    ]);
  });

  it("sums a filter's payments per day from their charges, in the day the history counted each in", async () => {
    // Sums for every site say 1,000,000 a day: a filter's chart must not show them.
    const db = await withSums([
      [dailySlot("USD", NOW), 1_000_000n],
      [dailySlot("USD", NOW - DAY), 1_000_000n],
    ]);
    const other = "https://other.example";
    const charged = async (origin: string, at: number, micro: string, historyDay?: string) => {
      const seeded = await seedPayment(db, { createdAt: at, origin, state: "settled" });
      await db.payments.update(seeded.id, {
        charge: { currency: "USD", micro, chargedAt: at, ...(historyDay ? { historyDay } : {}) },
      });
    };
    await charged(AGENT, NOW - DAY, "5000");
    await charged(AGENT, NOW, "2000");
    // Charged at 23:59:55 on the 29th by a clock set back: the history counted it on the 30th.
    await charged(AGENT, NOW - DAY + 11 * 3_600_000, "300", "2026-11-30");
    await charged(other, NOW, "90000");
    // Given back: no charge left, not counted.
    await seedPayment(db, { createdAt: NOW, origin: AGENT, state: "expired" });
    expect(await spendPerDay(db, settings, NOW, 2, { origin: AGENT })).toEqual([
      { day: "2026-11-29", currency: "USD", amount: "5000" },
      { day: "2026-11-30", currency: "USD", amount: "2300" },
    ]);
    expect(await spendPerDay(db, settings, NOW, 2, {})).toEqual([
      { day: "2026-11-29", currency: "USD", amount: "1000000" },
      { day: "2026-11-30", currency: "USD", amount: "1000000" },
    ]);
  });

  it("reads for a filter only the payments asked for near the days shown, and stops when told", async () => {
    const db = await withSums([]);
    const longAgo = NOW - 400 * DAY;
    for (let i = 0; i < 5; i++) {
      const seeded = await seedPayment(db, {
        createdAt: longAgo + i,
        origin: AGENT,
        state: "settled",
      });
      await db.payments.update(seeded.id, {
        charge: { currency: "USD", micro: "1", chargedAt: longAgo + i },
      });
    }
    const read: number[] = [];
    const reading = (payment: PaymentRecord) => {
      read.push(payment.createdAt);
      return payment;
    };
    db.payments.hook("reading", reading);
    expect(await spendPerDay(db, settings, NOW, 92, { origin: AGENT })).toHaveLength(92);
    db.payments.hook("reading").unsubscribe(reading);
    expect(read).toEqual([]);
    const stop = new AbortController();
    stop.abort(new Error("superseded"));
    await expect(
      spendPerDay(db, settings, NOW, 2, { origin: AGENT }, { signal: stop.signal }),
    ).rejects.toThrow("superseded");
  });

  it("keeps the span between 1 and 366 days", async () => {
    const db = await withSums([]);
    expect(await spendPerDay(db, settings, NOW, 0)).toHaveLength(1);
    expect(await spendPerDay(db, settings, NOW, 10_000)).toHaveLength(366);
  });
});
