import { describe, expect, it } from "vitest";
import { nativeTransaction, requested } from "./native-transaction";
import { openWalletDb } from "./schema";
import { transactionCount } from "./transaction-count";

describe("transactionCount", () => {
  it("counts each transaction the wallet's database opens, Dexie's and the native one, by mode", async () => {
    const db = openWalletDb(`count-${crypto.randomUUID()}`);
    await db.open();
    const before = { ...transactionCount };
    await db.counters.get("payments");
    await db.counters.put({ name: "payments", value: 1 });
    await db.transaction("rw", db.counters, db.budgetSums, async () => {
      await db.counters.get("payments");
      await db.budgetSums.put({ key: "k", periods: {}, updatedAt: 0 });
    });
    await nativeTransaction(db, ["counters"], async ({ counters }) =>
      requested(counters.get("payments")),
    );
    expect(transactionCount.readonly - before.readonly).toBe(1);
    expect(transactionCount.readwrite - before.readwrite).toBe(3);
    await db.delete();
  });
});
