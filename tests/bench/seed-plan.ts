import { sumKeysToCharge } from "../../lib/wallet/limits";
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
  /** The running-sum keys a charge adds to, by UTC day number (`Math.floor(ms / 86_400_000)`). */
  sumKeysByDay: Record<number, string[]>;
  /** What the wallet's budgetSums must hold for these payments: micro units by key. */
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
  const sumKeysByDay: Record<number, string[]> = {};
  const sums = new Map<string, bigint>();
  for (let i = 0; i < input.count; i++) {
    const at = input.now - 1 - Math.floor((i * span) / input.count);
    createdAt.push(at);
    const day = Math.floor(at / DAY_MS);
    const keys = sumKeysByDay[day] ?? sumKeysToCharge(input.origin, input.currency, day * DAY_MS);
    sumKeysByDay[day] = keys;
    for (const key of keys) sums.set(key, (sums.get(key) ?? 0n) + input.micro);
  }
  const monthKey = `global:${input.currency}:month:${periodKey("month", input.now)}`;
  return {
    createdAt,
    sumKeysByDay,
    sums: Object.fromEntries([...sums].map(([key, micro]) => [key, micro.toString()])),
    monthTotal: sums.get(monthKey) ?? 0n,
  };
}
