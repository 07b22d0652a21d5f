/**
 * Budget periods, all in UTC so a budget renews at the same instant whatever the
 * machine's time zone or DST: a day starts at 00:00:00.000 UTC, a week on Monday
 * 00:00 UTC (ISO 8601), a month on the 1st at 00:00 UTC. "none" never renews.
 */
export type BudgetPeriod = "day" | "week" | "month" | "none";

/** The wallet's one day length: UTC days have no DST. */
export const DAY_MS = 86_400_000;

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The key of the period that contains `at` (ms epoch): "2026-11-30" for a day, the
 * Monday's date for a week, "2026-11" for a month, "all" for none.
 */
export function periodKey(period: BudgetPeriod, at: number): string {
  switch (period) {
    case "day":
      return isoDate(at);
    case "week": {
      const dayStart = Math.floor(at / DAY_MS) * DAY_MS;
      const sinceMonday = (new Date(dayStart).getUTCDay() + 6) % 7;
      return isoDate(dayStart - sinceMonday * DAY_MS);
    }
    case "month":
      return isoDate(at).slice(0, 7);
    case "none":
      return "all";
  }
}
