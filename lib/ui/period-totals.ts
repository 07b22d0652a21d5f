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
  /** The first day counted, when the days given start after the period does: a part of it only. */
  since?: string;
}

/**
 * Sums daily spend into days, ISO weeks or months, per currency, newest first;
 * empty periods left out. The oldest week or month is usually begun before the
 * first day given: its total says from which day it counts.
 */
export function totalsByPeriod(days: DaySpend[], period: TotalsPeriod): PeriodTotal[] {
  const first = days.reduce<string | undefined>(
    (earliest, { day }) => (earliest === undefined || day < earliest ? day : earliest),
    undefined,
  );
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
    .map((entry) => ({
      ...entry,
      amount: entry.amount.toString(),
      ...(first !== undefined && firstDayOf(period, entry.period) < first ? { since: first } : {}),
    }));
}

/** A period key's first day, YYYY-MM-DD: a month's key is YYYY-MM. */
function firstDayOf(period: TotalsPeriod, key: string): string {
  return period === "month" ? `${key}-01` : key;
}
