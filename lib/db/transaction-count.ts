import type { Dexie } from "dexie";

/** IndexedDB transactions this worker has opened, by mode: numbers only, for diagnostics and the bench. */
export const transactionCount = { readonly: 0, readwrite: 0 };

export function countTransaction(mode: IDBTransactionMode): void {
  if (mode === "readwrite") transactionCount.readwrite++;
  else transactionCount.readonly++;
}

/** Counts every transaction Dexie opens on `db` (the hot path's native one counts itself). */
export function countDexieTransactions(db: Dexie): void {
  db.use({
    stack: "dbcore",
    name: "transaction-count",
    create: (down) => ({
      ...down,
      transaction: (stores, mode, options) => {
        countTransaction(mode);
        return down.transaction(stores, mode, options);
      },
    }),
  });
}
