import type { RemainingLimit } from "../wallet/limits";
import { formatMicro } from "../wallet/micro";
import type { BudgetPeriod } from "../wallet/periods";

const PERIOD_WORDS: Record<BudgetPeriod, string> = {
  day: "today",
  week: "this week",
  month: "this month",
  none: "in total",
};

/**
 * The policy's remaining limits in the words a person reads, e.g.
 * { "All sites, today": "4.99 USD", "This site, this week": "1 USD" }.
 */
export function describeRemaining(remaining: readonly RemainingLimit[]): Record<string, string> {
  const described: Record<string, string> = {};
  for (const { scope, period, currency, micro } of remaining) {
    const who = scope === "global" ? "All sites" : "This site";
    described[`${who}, ${PERIOD_WORDS[period]}`] = formatMicro(micro, currency);
  }
  return described;
}
