import type { WalletDb } from "../db/schema";

/** The running sums for `keys` (absent ones are 0), read from budgetSums only. */
export async function readSums(
  db: WalletDb,
  keys: readonly string[],
): Promise<Map<string, bigint>> {
  const rows = await db.budgetSums.bulkGet([...keys]);
  return new Map(keys.map((key, i) => [key, BigInt(rows[i]?.amount ?? "0")]));
}

/** Every running sum kept. */
export async function readAllSums(db: WalletDb): Promise<Map<string, bigint>> {
  const rows = await db.budgetSums.toArray();
  return new Map(rows.map((row) => [row.key, BigInt(row.amount)]));
}

/**
 * For tests only: the sums rebuilt by scanning every charged payment, to compare with
 * the running ones. The wallet itself never totals budgets this way.
 */
export async function recount(db: WalletDb): Promise<Map<string, bigint>> {
  const sums = new Map<string, bigint>();
  await db.payments.each((payment) => {
    if (payment.charge === undefined) return;
    const micro = BigInt(payment.charge.micro);
    for (const key of payment.charge.sumKeys) sums.set(key, (sums.get(key) ?? 0n) + micro);
  });
  return sums;
}
