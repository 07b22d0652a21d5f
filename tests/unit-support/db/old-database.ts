import Dexie from "dexie";

/**
 * The wallet's database as an older version (3 or later) declared it, the
 * payments table with `payments` as its indexes, to test upgrades from.
 */
export function openOldWalletDb(name: string, version: number, payments: string): Dexie {
  const old = new Dexie(name);
  old.version(version).stores({ payments, budgetSums: "key", counters: "name", settings: "key" });
  return old;
}

/** The wallet's database as version 4 declared it (a row per running sum), to test upgrades from. */
export function openV4Database(name: string): Dexie {
  return openOldWalletDb(
    name,
    4,
    "id, createdAt, &quoteId, [origin+createdAt], [receiver+createdAt], [state+createdAt], requestKey, elicitedBy",
  );
}
