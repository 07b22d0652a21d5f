import { formatMicro } from "../wallet/micro";

const PERIOD_WORDS: Record<string, string> = {
  day: "today",
  week: "this week",
  month: "this month",
  none: "in total",
};

/**
 * The policy's remaining limits (keyed "global:USD:day", "origin:<origin>:USD:week")
 * in the words a person reads, e.g. { "All sites, today": "4.99 USD" }.
 */
export function describeRemaining(remaining: Record<string, bigint>): Record<string, string> {
  const described: Record<string, string> = {};
  for (const [id, micro] of Object.entries(remaining)) {
    const parts = id.split(":");
    const period = parts.at(-1) ?? "";
    const currency = parts.at(-2) ?? "";
    const scope = parts[0] === "global" ? "All sites" : "This site";
    described[`${scope}, ${PERIOD_WORDS[period] ?? period}`] = formatMicro(micro, currency);
  }
  return described;
}
