import type { WalletDb } from "../../../lib/db/schema";
import { chargedSlots } from "../../../lib/wallet/charge";

/**
 * The sums rebuilt by scanning every charged payment, to compare with the running
 * ones (lib/wallet/budget-sums.ts). The wallet itself never totals budgets this way.
 */
export async function recount(db: WalletDb): Promise<Map<string, bigint>> {
  const sums = new Map<string, bigint>();
  await db.payments.each((payment) => {
    if (payment.charge === undefined) return;
    const micro = BigInt(payment.charge.micro);
    for (const { key } of chargedSlots(payment.origin, payment.charge)) {
      sums.set(key, (sums.get(key) ?? 0n) + micro);
    }
  });
  return sums;
}
