import type { BudgetSum, ChargeRecord, WalletDb } from "../db/schema";
import { GLOBAL_ROW_PREFIX, type SumSlot, slotKey, withHistoryDay } from "./limits";
import { periodKey } from "./periods";

/**
 * Where the running sums are kept: a few rows, each holding the current slot
 * of every period it counts (all sites in a currency: day and month; one site:
 * day, week, month and ever; one UTC day, for the spend history). A charge
 * reads and writes three rows instead of a row per sum: every request is a
 * round trip on the hot path.
 */

/** Every currency a charge was counted in: each has its all-sites row (a few rows, one per currency). */
export async function chargedCurrencies(db: WalletDb): Promise<string[]> {
  const rows = await db.budgetSums.where("key").startsWith(GLOBAL_ROW_PREFIX).primaryKeys();
  return rows.map((row) => row.slice(GLOBAL_ROW_PREFIX.length));
}

/** The rows that hold `slots`, each once, in order. */
export function rowsOf(slots: readonly SumSlot[]): string[] {
  return [...new Set(slots.map((slot) => slot.row))];
}

/**
 * The period `slot` is counted in: its own, or a later one its row already
 * holds. Periods never go back: a clock set behind the ledger (NTP stepping it
 * back across midnight) counts in the newest period the ledger has seen instead
 * of reopening, at 0, one whose spending that row no longer holds. Period keys
 * of one kind sort as their periods do (periods.ts).
 */
function periodIn(row: BudgetSum | undefined, slot: SumSlot): string {
  const kept = row?.periods[slot.period]?.at;
  return kept !== undefined && kept > slot.at ? kept : slot.at;
}

/**
 * A charge's `slots`, read in `rows`, with its day's spend history in the
 * day the all-sites daily sum counts it in (limits.ts withHistoryDay): a
 * history day moved there needs its own row read too.
 */
export function historyInCountedDay(
  slots: SumSlot[],
  rows: ReadonlyMap<string, BudgetSum | undefined>,
): SumSlot[] {
  return withHistoryDay(slots, (slot) => periodIn(rows.get(slot.row), slot));
}

/** The sum `slot` reads (0 when its row is absent or holds an older period). */
function amountIn(row: BudgetSum | undefined, slot: SumSlot): bigint {
  const kept = row?.periods[slot.period];
  return kept !== undefined && kept.at >= slot.at ? BigInt(kept.amount) : 0n;
}

/** The later period each of `slots` is counted in, by slot key, where its row holds one (periodIn). */
export function laterPeriods(
  rows: ReadonlyMap<string, BudgetSum | undefined>,
  slots: readonly SumSlot[],
): Record<string, string> | undefined {
  const later = slots.flatMap((slot) => {
    const at = periodIn(rows.get(slot.row), slot);
    return at === slot.at ? [] : [[slot.key, at] as const];
  });
  return later.length === 0 ? undefined : Object.fromEntries(later);
}

/**
 * `charge` as counted in `slots` of `rows`: naming the later periods it went
 * to, if any, and the day its spend history counted it in when that is not
 * the clock's (historyInCountedDay), for chargedSlots to give it back there.
 */
export function countedCharge(
  charge: ChargeRecord,
  rows: ReadonlyMap<string, BudgetSum | undefined>,
  slots: readonly SumSlot[],
): ChargeRecord {
  const later = laterPeriods(rows, slots);
  const historyDay = slots.find(({ holds }) => holds === "history")?.at;
  const moved = historyDay !== undefined && historyDay !== periodKey("day", charge.chargedAt);
  return {
    ...charge,
    ...(later === undefined ? {} : { laterPeriods: later }),
    ...(moved ? { historyDay } : {}),
  };
}

/** Each slot's sum by its key, from the rows read for it (by row key). */
export function sumsIn(
  slots: readonly SumSlot[],
  rows: ReadonlyMap<string, BudgetSum | undefined>,
): Map<string, bigint> {
  return new Map(slots.map((slot) => [slot.key, amountIn(rows.get(slot.row), slot)]));
}

/**
 * The rows to store so that each of `slots` holds its new sum in `sums`
 * (by slot key), each in the period it is counted in (periodIn); a row's
 * other periods stay as they were read.
 */
export function rowsWith(
  rows: ReadonlyMap<string, BudgetSum | undefined>,
  slots: readonly SumSlot[],
  sums: ReadonlyMap<string, bigint>,
  now: number,
): BudgetSum[] {
  const written = new Map<string, BudgetSum>();
  for (const slot of slots) {
    const amount = sums.get(slot.key);
    if (amount === undefined) continue;
    const row = written.get(slot.row) ?? {
      key: slot.row,
      periods: { ...rows.get(slot.row)?.periods },
      updatedAt: now,
    };
    row.periods[slot.period] = {
      at: periodIn(rows.get(slot.row), slot),
      amount: amount.toString(),
    };
    written.set(slot.row, row);
  }
  return [...written.values()];
}

/** The rows holding `slots`, by row key (absent ones undefined). */
export async function readRows(
  db: WalletDb,
  slots: readonly SumSlot[],
): Promise<Map<string, BudgetSum | undefined>> {
  const keys = rowsOf(slots);
  const found = await db.budgetSums.bulkGet(keys);
  return new Map(keys.map((key, i) => [key, found[i]]));
}

/** The running sums in `slots` by slot key (absent ones are 0), read from budgetSums only. */
export async function readSums(
  db: WalletDb,
  slots: readonly SumSlot[],
): Promise<Map<string, bigint>> {
  return sumsIn(slots, await readRows(db, slots));
}

/** Every running sum kept, by slot key. */
export async function readAllSums(db: WalletDb): Promise<Map<string, bigint>> {
  const sums = new Map<string, bigint>();
  for (const row of await db.budgetSums.toArray()) {
    for (const [period, kept] of Object.entries(row.periods)) {
      if (kept) sums.set(slotKey(row.key, period, kept.at), BigInt(kept.amount));
    }
  }
  return sums;
}
