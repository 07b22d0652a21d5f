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
