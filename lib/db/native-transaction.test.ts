import { describe, expect, it } from "vitest";
import { awaitKeepingOpen, nativeTransaction, requested } from "./native-transaction";
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

  it("keeps a transaction open while it waits for work outside the database", async () => {
    const db = openWalletDb(`native-${crypto.randomUUID()}`);
    const later = <T>(value: T, ms: number) =>
      new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
    await nativeTransaction(db, ["counters"], async (stores, commit) => {
      const value = await awaitKeepingOpen(stores.counters, "payments", later(3, 25));
      // Still active: a transaction left without a request would have committed meanwhile.
      const written = requested(stores.counters.put(counter(value)));
      commit();
      await written;
    });
    expect(await db.counters.get("payments")).toEqual(counter(3));
    // Already settled: no read needed, the value comes back at once.
    await nativeTransaction(db, ["counters"], async (stores) => {
      const value = await awaitKeepingOpen(stores.counters, "payments", Promise.resolve(4));
      await requested(stores.counters.put(counter(value)));
    });
    expect(await db.counters.get("payments")).toEqual(counter(4));
    await db.delete();
  });

  it("rejects, with the transaction aborted, when the work it waited for fails", async () => {
    const db = openWalletDb(`native-${crypto.randomUUID()}`);
    const failing = new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error("the signer is gone")), 10),
    );
    await expect(
      nativeTransaction(db, ["counters"], async (stores) => {
        await requested(stores.counters.put(counter(1)));
        await awaitKeepingOpen(stores.counters, "payments", failing);
      }),
    ).rejects.toThrow("the signer is gone");
    expect(await db.counters.get("payments")).toBeUndefined();
    await db.delete();
  });
});
