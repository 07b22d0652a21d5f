import type { PaymentOption } from "../protocol/offer";
import { formatMicro, toMicro } from "./micro";
import { type BudgetPeriod, periodKey } from "./periods";
import type { AllowedAsset, PolicySettings } from "./policy-settings";
import { chargeCurrency } from "./test-money";

/**
 * The running limits a payment counts against, shared by the policy (decides
 * before asking) and the ledger (re-checks inside the charging transaction).
 * A running sum is a slot (period and period key) in a row: one row for all
 * sites in a currency, one per site and currency, one per day and currency for
 * the spend history (see budget-sums.ts). In memory a sum is named by its
 * slot key, e.g. "global:USD:day:2026-11-30" or "origin:https://agent.example:USD:week:2026-11-30".
 */

export type ChargeOption = Pick<PaymentOption, "network" | "asset" | "amount" | "decimals">;

export type ChargeRefusalRule =
  | "network-not-allowed"
  | "asset-not-allowed"
  | "asset-decimals-mismatch"
  | "amount-not-positive";

export type ResolvedCharge =
  | {
      ok: true;
      asset: AllowedAsset;
      /** What budgets count it in: the asset's currency, or its test form on a testnet. */
      currency: string;
      micro: bigint;
    }
  | { ok: false; rule: ChargeRefusalRule; reason: string };

/** What a payment costs in the user's currency terms, or why it cannot be counted at all. */
export function resolveCharge(settings: PolicySettings, option: ChargeOption): ResolvedCharge {
  if (!settings.networks.includes(option.network)) {
    return {
      ok: false,
      rule: "network-not-allowed",
      reason: `network ${option.network} is not among the allowed networks`,
    };
  }
  const asset = settings.assets.find(
    (a) => a.network === option.network && a.asset.toLowerCase() === option.asset.toLowerCase(),
  );
  if (asset === undefined) {
    return {
      ok: false,
      rule: "asset-not-allowed",
      reason: `asset ${option.asset} on ${option.network} is not among the allowed assets`,
    };
  }
  if (asset.decimals !== option.decimals) {
    return {
      ok: false,
      rule: "asset-decimals-mismatch",
      reason: `the offer says ${asset.symbol} has ${option.decimals} decimals; it has ${asset.decimals}`,
    };
  }
  if (option.amount <= 0n) {
    return {
      ok: false,
      rule: "amount-not-positive",
      reason: `amount must be positive, got ${option.amount}`,
    };
  }
  return {
    ok: true,
    asset,
    currency: chargeCurrency(asset.currency, option.network),
    micro: toMicro(option.amount, asset.decimals),
  };
}

export type CapRule = "global-day-cap" | "global-month-cap" | "origin-budget";

/** Which limit: the caps over all sites, or the paying site's budget; per period and currency. */
export interface LimitScope {
  scope: "global" | "origin";
  period: BudgetPeriod;
  currency: string;
}

/** Where one running sum is kept: a period's slot in a budget-sums row. */
export interface SumSlot {
  /** The row: "global:USD", "origin:https://agent.example:USD" or "daily:USD:2026-11-30". */
  row: string;
  /** What the row counts: all sites' spending, one site's, or a UTC day's for the spend history. */
  holds: "all-sites" | "site" | "history";
  currency: string;
  period: BudgetPeriod;
  /** The period's key (periods.ts): a row holding an older one reads 0 (budget-sums.ts). */
  at: string;
  /** The sum's name in memory: row, period and period key. */
  key: string;
}

export interface CapLimit extends LimitScope {
  rule: CapRule;
  /** The running sum this limit reads, for the period that contains now. */
  slot: SumSlot;
  cap: bigint;
}

/** What is left of one limit, in micro units. */
export interface RemainingLimit extends LimitScope {
  micro: bigint;
}

/** The all-sites rows' keys start so: one row per currency ever charged. */
export const GLOBAL_ROW_PREFIX = "global:";
const globalRow = (currency: string) => `${GLOBAL_ROW_PREFIX}${currency}`;
const originRow = (origin: string, currency: string) => `origin:${origin}:${currency}`;
const dailyRow = (currency: string, day: string) => `daily:${currency}:${day}`;

/** A sum's name in memory, from its row, period and period key. */
export function slotKey(row: string, period: string, at: string): string {
  return `${row}:${period}:${at}`;
}

/** The row and period a slot key names, without its period key (which holds no colon). */
export function slotPlace(key: string): string {
  return key.slice(0, key.lastIndexOf(":"));
}

/** `slot`'s row and period, in the period keyed `at`. */
export function slotAt(
  { row, holds, currency, period }: Omit<SumSlot, "at" | "key">,
  at: string,
): SumSlot {
  return { row, holds, currency, period, at, key: slotKey(row, period, at) };
}

const allSitesSlot = (currency: string, period: BudgetPeriod, at: number): SumSlot =>
  slotAt({ row: globalRow(currency), holds: "all-sites", currency, period }, periodKey(period, at));

const siteSlot = (origin: string, currency: string, period: BudgetPeriod, at: number): SumSlot =>
  slotAt(
    { row: originRow(origin, currency), holds: "site", currency, period },
    periodKey(period, at),
  );

const PERIOD_ADJECTIVE: Record<BudgetPeriod, string> = {
  day: "daily",
  week: "weekly",
  month: "monthly",
  none: "",
};

/** A limit in plain words: "the daily cap for all sites", "this site's weekly budget". */
export function limitPhrase({ scope, period }: LimitScope): string {
  const adjective = PERIOD_ADJECTIVE[period];
  return scope === "global"
    ? `the ${adjective} cap for all sites`
    : `this site's ${adjective ? `${adjective} ` : ""}budget`;
}

/** The caps the user set that apply to a payment by `origin` in `currency` at `at`. */
export function capLimits(
  settings: PolicySettings,
  origin: string,
  currency: string,
  at: number,
): CapLimit[] {
  const limits: CapLimit[] = [];
  const global = settings.globalCaps[currency];
  for (const [period, rule] of [
    ["day", "global-day-cap"],
    ["month", "global-month-cap"],
  ] as const) {
    const cap = global?.[period];
    if (cap === undefined) continue;
    const slot = allSitesSlot(currency, period, at);
    limits.push({ scope: "global", period, currency, rule, slot, cap });
  }
  const budget = settings.origins[origin];
  if (budget !== undefined && budget.currency === currency) {
    const { period } = budget;
    limits.push({
      scope: "origin",
      period,
      currency,
      rule: "origin-budget",
      slot: siteSlot(origin, currency, period, at),
      cap: budget.amount,
    });
  }
  return limits;
}

/**
 * Every running sum a charge adds to, whether or not a cap reads it today, so a cap
 * or a budget period the user sets later already sees this period's spending; and
 * the day's spend for the history.
 */
export function sumSlotsToCharge(origin: string, currency: string, at: number): SumSlot[] {
  return [
    allSitesSlot(currency, "day", at),
    allSitesSlot(currency, "month", at),
    ...(["day", "week", "month", "none"] as const).map((period) =>
      siteSlot(origin, currency, period, at),
    ),
    dailySlot(currency, at),
  ];
}

/** The all-sites spend of the UTC day that contains `at`, kept for the spend history. */
export function dailySlot(currency: string, at: number): SumSlot {
  return dailySlotOf(currency, periodKey("day", at));
}

/** The spend-history slot of the UTC day keyed `day` (periods.ts). */
export function dailySlotOf(currency: string, day: string): SumSlot {
  return slotAt({ row: dailyRow(currency, day), holds: "history", currency, period: "day" }, day);
}

/**
 * A charge's `slots` (sumSlotsToCharge) with its day's spend history kept in
 * the day the all-sites daily sum counts it in, `periodOf` that slot: later
 * than the clock's day when the clock was set back (budget-sums.ts periodIn),
 * so the spend history shows for each day what that day's cap enforced.
 * `slots` itself when the history stays in the clock's day.
 */
export function withHistoryDay(slots: SumSlot[], periodOf: (slot: SumSlot) => string): SumSlot[] {
  const allSitesDay = slots.find(({ holds, period }) => holds === "all-sites" && period === "day");
  if (allSitesDay === undefined) return slots;
  const history = dailySlotOf(allSitesDay.currency, periodOf(allSitesDay));
  if (slots.some(({ key }) => key === history.key)) return slots;
  return slots.map((slot) => (slot.holds === "history" ? history : slot));
}

/** The slot keys of `sumSlotsToCharge`, for reading sums from a map. */
export function sumKeysToCharge(origin: string, currency: string, at: number): string[] {
  return sumSlotsToCharge(origin, currency, at).map((slot) => slot.key);
}

const spentOf = (spent: ReadonlyMap<string, bigint>, limit: CapLimit) =>
  spent.get(limit.slot.key) ?? 0n;

/** The first limit that `micro` more would overrun, if any. */
export function exceededCap(
  limits: readonly CapLimit[],
  spent: ReadonlyMap<string, bigint>,
  micro: bigint,
): CapLimit | undefined {
  return limits.find((limit) => spentOf(spent, limit) + micro > limit.cap);
}

/** What is left of each limit once `micro` is charged (pass 0n for "without this payment"). */
export function remainingAfter(
  limits: readonly CapLimit[],
  spent: ReadonlyMap<string, bigint>,
  micro: bigint,
): RemainingLimit[] {
  return limits.map((limit) => {
    const left = limit.cap - spentOf(spent, limit) - micro;
    const { scope, period, currency } = limit;
    return { scope, period, currency, micro: left > 0n ? left : 0n };
  });
}

/** The one wording for an overrun cap, used by the policy and by the ledger's re-check. */
export function budgetExhaustedReason(
  limit: CapLimit,
  spent: ReadonlyMap<string, bigint>,
  micro: bigint,
): string {
  const used = spentOf(spent, limit);
  return (
    `budget exhausted: ${limitPhrase(limit)} is ${formatMicro(limit.cap, limit.currency)}, ` +
    `${formatMicro(used, limit.currency)} spent, this payment is ${formatMicro(micro, limit.currency)}`
  );
}
