import { periodKey } from "../wallet/periods";

export type TotalsPeriod = "day" | "week" | "month";

export interface DaySpend {
  /** YYYY-MM-DD (UTC). */
  day: string;
  currency: string;
  /** Micro units. */
  amount: string;
}

export interface PeriodTotal {
  /** The period's first day: the day itself, the Monday of its ISO week, or YYYY-MM. */
  period: string;
  currency: string;
  amount: string;
}

/** Sums daily spend into days, ISO weeks or months, per currency, newest first; empty periods left out. */
export function totalsByPeriod(days: DaySpend[], period: TotalsPeriod): PeriodTotal[] {
  const sums = new Map<string, { period: string; currency: string; amount: bigint }>();
  for (const row of days) {
    const key = periodKey(period, Date.parse(`${row.day}T00:00:00Z`));
    const id = `${key} ${row.currency}`;
    const entry = sums.get(id) ?? { period: key, currency: row.currency, amount: 0n };
    entry.amount += BigInt(row.amount);
    sums.set(id, entry);
  }
  // The background sends every day of its range, spent or not: only periods with spend are totals.
  return [...sums.values()]
    .filter((entry) => entry.amount !== 0n)
    .sort((a, b) => b.period.localeCompare(a.period) || a.currency.localeCompare(b.currency))
    .map((entry) => ({ ...entry, amount: entry.amount.toString() }));
}
