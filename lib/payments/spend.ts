import type { ChargeRecord, WalletDb } from "../db/schema";
import type { PaymentFilter, SpendSummary } from "../messages";
import { chargedCurrencies, historyInCountedDay, readRows, readSums } from "../wallet/budget-sums";
import { capLimits, dailySlot, type SumSlot, sumSlotsToCharge } from "../wallet/limits";
import { DAY_MS, periodKey } from "../wallet/periods";
import type { PolicySettings } from "../wallet/policy-settings";
import { forEachCharged, type PieceOptions } from "./spend-by";

/**
 * How long before the first day shown a filtered chart starts reading payments:
 * a payment is charged when approved, which may come a while after it was asked for.
 */
const CHARGED_AFTER_ASKED_MS = 7 * DAY_MS;

/**
 * The currencies spend may be shown in: those with a cap row and the one `origin`'s
 * budget is in (shown even at 0), then any other a charge was counted in (test money
 * of a token whose currency has no cap row), which the callers show only where its
 * spend is not 0.
 */
async function currencies(
  db: WalletDb,
  settings: PolicySettings,
  origin?: string,
): Promise<{ currency: string; always: boolean }[]> {
  const budget = origin === undefined ? undefined : settings.origins[origin]?.currency;
  const always = [...new Set([...Object.keys(settings.globalCaps), ...(budget ? [budget] : [])])];
  const others = (await chargedCurrencies(db)).filter((currency) => !always.includes(currency));
  return [
    ...always.map((currency) => ({ currency, always: true })),
    ...others.map((currency) => ({ currency, always: false })),
  ];
}

/**
 * Spend today and this month against the caps, per currency, and an origin's
 * budget — read from the running sums, never by scanning history.
 */
export async function spendSummaries(
  db: WalletDb,
  settings: PolicySettings,
  now: number,
  origin?: string,
): Promise<SpendSummary[]> {
  const summaries: SpendSummary[] = [];
  for (const { currency, always } of await currencies(db, settings, origin)) {
    const slots = sumSlotsToCharge(origin ?? "", currency, now);
    const sums = await readSums(db, slots);
    const spentIn = (index: number) => (sums.get(slots[index]?.key ?? "") ?? 0n).toString();
    const caps = settings.globalCaps[currency];
    const summary: SpendSummary = {
      currency,
      today: spentIn(0),
      month: spentIn(1),
      ...(caps?.day === undefined ? {} : { dayCap: caps.day.toString() }),
      ...(caps?.month === undefined ? {} : { monthCap: caps.month.toString() }),
    };
    if (origin !== undefined) {
      const budget = settings.origins[origin];
      const limit = capLimits(settings, origin, currency, now).find(
        (l) => l.rule === "origin-budget",
      );
      const spent = limit ? (sums.get(limit.slot.key) ?? 0n) : 0n;
      summary.origin = {
        origin,
        spent: spent.toString(),
        ...(budget && budget.currency === currency
          ? {
              budget: {
                currency: budget.currency,
                amount: budget.amount.toString(),
                period: budget.period,
                autoApproveUpTo: budget.autoApproveUpTo.toString(),
                perCallMax: budget.perCallMax.toString(),
              },
              remaining: (budget.amount > spent ? budget.amount - spent : 0n).toString(),
            }
          : {}),
      };
    }
    if (always || summary.today !== "0" || summary.month !== "0") summaries.push(summary);
  }
  return summaries;
}

/**
 * The UTC day a charge made `now` in `currency` goes into the spend history:
 * the clock's, or a later one the all-sites daily sum already counts in while
 * the clock is set back behind the ledger (limits.ts withHistoryDay).
 */
async function historyDayAt(db: WalletDb, currency: string, now: number): Promise<string> {
  const slots = sumSlotsToCharge("", currency, now);
  const counted = historyInCountedDay(slots, await readRows(db, slots));
  return counted.find((slot) => slot.holds === "history")?.at ?? periodKey("day", now);
}

/**
 * Spend per UTC day for the last `days` days, oldest first: all sites' from the
 * daily sums, or, for a filter that picks some payments, theirs, summed from
 * their charges (each in the day the history counted it in). The last day is
 * today's, or the later day the budgets already count in while the clock is set
 * back: its charges are shown where the day cap counted them.
 */
export async function spendPerDay(
  db: WalletDb,
  settings: PolicySettings,
  now: number,
  days: number,
  filter: PaymentFilter = {},
  options: PieceOptions = {},
): Promise<{ day: string; currency: string; amount: string }[]> {
  const span = Math.max(1, Math.min(days, 366));
  const filtered = Object.values(filter).some((value) => value !== undefined);
  const kept = await currencies(db, settings);
  let end = now;
  for (const { currency } of kept) {
    const counted = Date.parse(`${await historyDayAt(db, currency, now)}T00:00:00Z`);
    if (counted > end) end = counted;
  }
  const wanted: { currency: string; slot: SumSlot }[] = [];
  for (const { currency } of kept) {
    for (let i = span - 1; i >= 0; i--)
      wanted.push({ currency, slot: dailySlot(currency, end - i * DAY_MS) });
  }
  const sums = filtered
    ? await chargedPerDay(db, filter, wanted, end - (span - 1) * DAY_MS, options)
    : await readSums(
        db,
        wanted.map(({ slot }) => slot),
      );
  const perDay = wanted.map(({ currency, slot }) => ({
    day: slot.at,
    currency,
    amount: (sums.get(slot.key) ?? 0n).toString(),
  }));
  // A currency with no cap row is shown where something was spent in it in these days.
  const spentIn = new Set(perDay.filter((d) => d.amount !== "0").map((d) => d.currency));
  const shown = new Set(
    kept.filter((k) => k.always || spentIn.has(k.currency)).map((k) => k.currency),
  );
  return perDay.filter((d) => shown.has(d.currency));
}

/**
 * The filter's charges summed into `wanted` days (the first at `firstDay`), by their slot keys;
 * charges in other currencies or days left out. Payments asked for long before it are not read.
 */
async function chargedPerDay(
  db: WalletDb,
  filter: PaymentFilter,
  wanted: readonly { currency: string; slot: SumSlot }[],
  firstDay: number,
  options: PieceOptions,
): Promise<Map<string, bigint>> {
  const slotOf = new Map(wanted.map(({ currency, slot }) => [`${slot.at} ${currency}`, slot.key]));
  const sums = new Map<string, bigint>();
  const from = Math.max(filter.from ?? 0, firstDay - DAY_MS - CHARGED_AFTER_ASKED_MS);
  const add = ({ charge }: { charge: ChargeRecord }) => {
    const day = charge.historyDay ?? periodKey("day", charge.chargedAt);
    const key = slotOf.get(`${day} ${charge.currency}`);
    if (key !== undefined) sums.set(key, (sums.get(key) ?? 0n) + BigInt(charge.micro));
  };
  await forEachCharged(db, { ...filter, from }, add, options);
  return sums;
}
