import type { BudgetSum } from "../../lib/db/schema";
import { rowsWith } from "../../lib/wallet/budget-sums";
import { type SumSlot, sumSlotsToCharge } from "../../lib/wallet/limits";
import { periodKey } from "../../lib/wallet/periods";

const DAY_MS = 86_400_000;

export interface SeedPlanInput {
  count: number;
  /** Wall clock (ms) the history ends at: the newest payment is 1 ms before it. */
  now: number;
  /** How many days back the payments reach, evenly spaced. */
  days: number;
  origin: string;
  currency: string;
  /** What each payment charged, in micro units. */
  micro: bigint;
}

export interface SeedPlan {
  /** `createdAt` of each payment, newest first. */
  createdAt: number[];
  /** What the wallet's budgetSums must hold for these payments, row by row. */
  rows: BudgetSum[];
  /** Every sum the charges added to, micro units by slot key (ended periods too). */
  sums: Record<string, string>;
  /** The all-sites total for the month that holds `now`, micro units. */
  monthTotal: bigint;
}

/**
 * A history of `count` charged payments spread over `days`, with the running sums the wallet
 * would have kept (lib/wallet/limits decides the keys), so a seeded database reads as if the
 * payments had been made one by one.
 */
export function seedPlan(input: SeedPlanInput): SeedPlan {
  const span = input.days * DAY_MS;
  const createdAt: number[] = [];
  const slotsByDay = new Map<number, SumSlot[]>();
  const sums = new Map<string, bigint>();
  for (let i = 0; i < input.count; i++) {
    const at = input.now - 1 - Math.floor((i * span) / input.count);
    createdAt.push(at);
    const day = Math.floor(at / DAY_MS);
    const slots =
      slotsByDay.get(day) ?? sumSlotsToCharge(input.origin, input.currency, day * DAY_MS);
    slotsByDay.set(day, slots);
    for (const { key } of slots) sums.set(key, (sums.get(key) ?? 0n) + input.micro);
  }
  // Oldest day first, so each row ends holding its latest periods, as charging one by one leaves it.
  const rows = new Map<string, BudgetSum | undefined>();
  for (const day of [...slotsByDay.keys()].sort((a, b) => a - b)) {
    const slots = slotsByDay.get(day) ?? [];
    const stored = new Map(slots.map(({ key }) => [key, sums.get(key) ?? 0n]));
    for (const row of rowsWith(rows, slots, stored, input.now)) rows.set(row.key, row);
  }
  const monthKey = `global:${input.currency}:month:${periodKey("month", input.now)}`;
  return {
    createdAt,
    rows: [...rows.values()].filter((row): row is BudgetSum => row !== undefined),
    sums: Object.fromEntries([...sums].map(([key, micro]) => [key, micro.toString()])),
    monthTotal: sums.get(monthKey) ?? 0n,
  };
}
