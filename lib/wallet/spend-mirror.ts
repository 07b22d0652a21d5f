import type { WalletDb } from "../db/schema";
import { readSums } from "./budget-sums";
import {
  type ChargeOption,
  resolveCharge,
  type SumSlot,
  slotPlace,
  sumSlotsToCharge,
} from "./limits";
import type { PolicySettings } from "./policy-settings";

/** How many running sums the mirror keeps (a few per site and currency in use). */
const MAX_KEPT = 512;

/**
 * The running budget sums as this worker last read or wrote them, so that the
 * policy decides an automatic payment from memory. Only this worker's ledger
 * changes them: the engine tells the mirror what a charge committed, or has
 * it forget everything after any other change. Advisory only: every charge
 * re-checks the database's sums in its own transaction.
 */
export class SpendMirror {
  /**
   * By row and period (slotPlace), one period's sum: a charge by a clock set
   * back counts in a later period (budget-sums.ts), and so changes what both
   * keys read; a second key kept for the same sum could be stale.
   */
  private readonly sums = new Map<string, { key: string; amount: bigint }>();

  constructor(private readonly db: WalletDb) {}

  /** The sums in `slots` by key (absent ones are 0), read from the database only for slots not yet kept. */
  async read(slots: readonly SumSlot[]): Promise<Map<string, bigint>> {
    const missing = slots.filter(({ key }) => this.kept(key) === undefined);
    if (missing.length > 0) {
      for (const [key, amount] of await readSums(this.db, missing)) this.keep(key, amount);
    }
    return new Map(slots.map(({ key }) => [key, this.kept(key) ?? 0n]));
  }

  /**
   * The sums `decidePayment` needs for a payment by `origin` at `now`; empty
   * when the option cannot be counted (the policy then refuses it on its own).
   */
  async spentFor(
    settings: PolicySettings,
    origin: string,
    option: ChargeOption,
    now: number,
  ): Promise<Map<string, bigint>> {
    const charge = resolveCharge(settings, option);
    if (!charge.ok) return new Map();
    return this.read(sumSlotsToCharge(origin, charge.currency, now));
  }

  /** What a committed charge left in the sums. */
  committed(sums: ReadonlyMap<string, bigint>): void {
    for (const [key, amount] of sums) this.keep(key, amount);
  }

  /** After a change this mirror did not see the result of: read afresh next time. */
  forget(): void {
    this.sums.clear();
  }

  private kept(key: string): bigint | undefined {
    const kept = this.sums.get(slotPlace(key));
    return kept?.key === key ? kept.amount : undefined;
  }

  private keep(key: string, amount: bigint): void {
    const place = slotPlace(key);
    this.sums.delete(place);
    this.sums.set(place, { key, amount });
    if (this.sums.size > MAX_KEPT) {
      const oldest = this.sums.keys().next().value;
      if (oldest !== undefined) this.sums.delete(oldest);
    }
  }
}
