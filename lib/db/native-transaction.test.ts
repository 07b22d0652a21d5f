import { describe, expect, it } from "vitest";
import { nativeTransaction, requested } from "./native-transaction";
import { openWalletDb } from "./schema";

describe("nativeTransaction", () => {
  const counter = (value: number) => ({ name: "payments" as const, value });

  it("resolves with what it ran once every write has committed", async () => {
    const db = openWalletDb(`native-${crypto.randomUUID()}`);
    const value = await nativeTransaction(db, ["counters", "budgetSums"], async (stores) => {
      const before = await requested(stores.counters.get("payments"));
      await Promise.all([
        requested(stores.counters.put(counter(1))),
        requested(stores.budgetSums.put({ key: "k", amount: "5", updatedAt: 0 })),
      ]);
      return before;
    });
    expect(value).toBeUndefined();
    expect(await db.counters.get("payments")).toEqual(counter(1));
    expect(await db.budgetSums.get("k")).toMatchObject({ amount: "5" });
    await db.delete();
  });

  it("writes nothing when what it ran throws, or when a request fails", async () => {
    const db = openWalletDb(`native-${crypto.randomUUID()}`);
    await expect(
      nativeTransaction(db, ["counters"], async (stores) => {
        await requested(stores.counters.put(counter(1)));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await db.counters.get("payments")).toBeUndefined();

    await db.counters.add(counter(7));
    await expect(
      nativeTransaction(db, ["counters", "budgetSums"], async (stores) => {
        await requested(stores.budgetSums.put({ key: "k", amount: "5", updatedAt: 0 }));
        await requested(stores.counters.add(counter(8)));
      }),
    ).rejects.toMatchObject({ name: "ConstraintError" });
    expect(await db.budgetSums.get("k")).toBeUndefined();
    expect(await db.counters.get("payments")).toEqual(counter(7));
    await db.delete();
  });
});
