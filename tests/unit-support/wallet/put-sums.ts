import type { WalletDb } from "../../../lib/db/schema";
import { readRows, rowsWith } from "../../../lib/wallet/budget-sums";
import type { SumSlot } from "../../../lib/wallet/limits";

/** Stores running sums in their slots as a charge would, for a test to start from. */
export async function putSums(
  db: WalletDb,
  sums: readonly (readonly [SumSlot, bigint])[],
  now = 0,
): Promise<void> {
  const slots = sums.map(([slot]) => slot);
  const amounts = new Map(sums.map(([slot, amount]) => [slot.key, amount]));
  await db.budgetSums.bulkPut(rowsWith(await readRows(db, slots), slots, amounts, now));
}
