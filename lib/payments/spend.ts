import type { WalletDb } from "../db/schema";
import type { SpendSummary } from "../messages";
import { readSums } from "../wallet/budget-sums";
import { capLimits, sumKeysToCharge } from "../wallet/limits";
import { DAY_MS } from "../wallet/periods";
import type { PolicySettings } from "../wallet/policy-settings";

function currencies(settings: PolicySettings): string[] {
  return [
    ...new Set([...Object.keys(settings.globalCaps), ...settings.assets.map((a) => a.currency)]),
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
  for (const currency of currencies(settings)) {
    const [dayKey, monthKey, ...originKeys] = sumKeysToCharge(origin ?? "", currency, now);
    const keys = [dayKey, monthKey, ...originKeys].filter((k): k is string => k !== undefined);
    const sums = await readSums(db, keys);
    const caps = settings.globalCaps[currency];
    const summary: SpendSummary = {
      currency,
      today: (sums.get(dayKey ?? "") ?? 0n).toString(),
      month: (sums.get(monthKey ?? "") ?? 0n).toString(),
      ...(caps?.day === undefined ? {} : { dayCap: caps.day.toString() }),
      ...(caps?.month === undefined ? {} : { monthCap: caps.month.toString() }),
    };
    if (origin !== undefined) {
      const budget = settings.origins[origin];
      const limit = capLimits(settings, origin, currency, now).find(
        (l) => l.rule === "origin-budget",
      );
      const spent = limit ? ((await readSums(db, [limit.sumKey])).get(limit.sumKey) ?? 0n) : 0n;
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
    summaries.push(summary);
  }
  return summaries;
}

/** All-sites spend per UTC day for the last `days` days, oldest first, from the daily sums. */
export async function spendPerDay(
  db: WalletDb,
  settings: PolicySettings,
  now: number,
  days: number,
): Promise<{ day: string; currency: string; amount: string }[]> {
  const span = Math.max(1, Math.min(days, 366));
  const rows: { day: string; currency: string; key: string }[] = [];
  for (const currency of currencies(settings)) {
    for (let i = span - 1; i >= 0; i--) {
      const at = now - i * DAY_MS;
      const key = sumKeysToCharge("", currency, at)[0];
      if (key) rows.push({ day: new Date(at).toISOString().slice(0, 10), currency, key });
    }
  }
  const sums = await readSums(
    db,
    rows.map((r) => r.key),
  );
  return rows.map(({ day, currency, key }) => ({
    day,
    currency,
    amount: (sums.get(key) ?? 0n).toString(),
  }));
}
