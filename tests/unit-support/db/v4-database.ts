import Dexie from "dexie";

/** The wallet's database as version 4 declared it (a row per running sum), to test upgrades from. */
export function openV4Database(name: string): Dexie {
  const v4 = new Dexie(name);
  v4.version(4).stores({
    payments:
      "id, createdAt, &quoteId, [origin+createdAt], [receiver+createdAt], [state+createdAt], requestKey, elicitedBy",
    budgetSums: "key",
    counters: "name",
    settings: "key",
  });
  return v4;
}
