import type { ChargeRecord, PaymentRecord } from "../db/schema";
import { WalletError } from "./errors";
import {
  budgetExhaustedReason,
  capLimits,
  dailySlotOf,
  exceededCap,
  resolveCharge,
  type SumSlot,
  slotAt,
  sumSlotsToCharge,
} from "./limits";
import type { PolicySettings } from "./policy-settings";

/**
 * Where money is counted: a payment's charge in its budget currency, checked
 * against every cap's running sum. Pure; the ledger reads the sums and
 * writes what this returns in the same transaction as the payment.
 */

/** What charging a payment needs to know before reading the sums: its currency, amount and sums. */
export type ChargeTarget =
  | { ok: true; currency: string; micro: bigint; slots: SumSlot[] }
  | { ok: false; error: WalletError };

export function chargeTarget(
  payment: PaymentRecord,
  settings: PolicySettings,
  now: number,
): ChargeTarget {
  const charge = resolveCharge(settings, {
    network: payment.network,
    asset: payment.asset,
    amount: BigInt(payment.amount),
    decimals: payment.decimals,
  });
  if (!charge.ok) {
    const error = new WalletError("charge-not-allowed", charge.reason, {
      paymentId: payment.id,
      rule: charge.rule,
    });
    return { ok: false, error };
  }
  const slots = sumSlotsToCharge(payment.origin, charge.currency, now);
  return { ok: true, currency: charge.currency, micro: charge.micro, slots };
}

/**
 * Re-checks every cap against the running sums `spent` and says what the sums
 * become with the payment added. The person may approve beyond a site's budget
 * (they are asked when it is used up); only the policy's own approvals must
 * stay within it. Global caps bind both.
 */
export function planCharge(
  payment: PaymentRecord,
  target: Extract<ChargeTarget, { ok: true }>,
  spent: ReadonlyMap<string, bigint>,
  settings: PolicySettings,
  now: number,
): { charge: ChargeRecord; sums: Map<string, bigint> } | { error: WalletError } {
  const withinSiteBudget = payment.approvedBy !== "person";
  const limits = capLimits(settings, payment.origin, target.currency, now).filter(
    (limit) => withinSiteBudget || limit.rule !== "origin-budget",
  );
  const overrun = exceededCap(limits, spent, target.micro);
  if (overrun !== undefined) {
    return {
      error: new WalletError(
        "budget-exhausted",
        budgetExhaustedReason(overrun, spent, target.micro),
        // Global caps are checked first: "origin-budget" is an overrun of the site's budget alone.
        { paymentId: payment.id, rule: overrun.rule },
      ),
    };
  }
  const sums = new Map(target.slots.map(({ key }) => [key, (spent.get(key) ?? 0n) + target.micro]));
  const charge = { currency: target.currency, micro: target.micro.toString(), chargedAt: now };
  return { charge, sums };
}

/**
 * The sums a charge was added to, to give it back. Its spend history is in the
 * day the charge names, else the clock's: a charge stored before the history
 * followed the day cap (limits.ts withHistoryDay) names none, and was counted there.
 */
export function chargedSlots(origin: string, charge: ChargeRecord): SumSlot[] {
  return sumSlotsToCharge(origin, charge.currency, charge.chargedAt).map((slot) => {
    if (slot.holds === "history") {
      return charge.historyDay === undefined ? slot : dailySlotOf(slot.currency, charge.historyDay);
    }
    const later = charge.laterPeriods?.[slot.key];
    return later === undefined ? slot : slotAt(slot, later);
  });
}
