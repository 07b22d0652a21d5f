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

  it("rejects with the failure its run saw when a request fails after commit, writing nothing", async () => {
    // Chromium and Firefox run a failed request's continuations before its error aborts the
    // transaction: the run fails while the transaction is committing and abort() is refused.
    // fake-indexeddb aborts first, so the run here fails at once after commit(), as it would there.
    const db = openWalletDb(`native-${crypto.randomUUID()}`);
    await db.counters.add(counter(7));
    const seen = new DOMException("Key already exists in the object store.", "ConstraintError");
    await expect(
      nativeTransaction(db, ["counters", "budgetSums"], async (stores, commit) => {
        stores.budgetSums.put({ key: "k", amount: "5", updatedAt: 0 });
        stores.counters.add(counter(8));
        commit();
        throw seen;
      }),
    ).rejects.toBe(seen);
    expect(await db.budgetSums.get("k")).toBeUndefined();
    expect(await db.counters.get("payments")).toEqual(counter(7));
    await db.delete();
  });

  it("keeps a transaction open while it waits for work outside the database", async () => {
    const db = openWalletDb(`native-${crypto.randomUUID()}`);
    const later = <T>(value: T, ms: number) =>
      new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
    await nativeTransaction(db, ["counters"], async (stores, commit) => {
      const kept = await awaitKeepingOpen(stores.counters, "payments", later(3, 25), 5_000);
      // Still active: a transaction left without a request would have committed meanwhile.
      const written = requested(stores.counters.put(counter(kept?.value ?? 0)));
      commit();
      await written;
    });
    expect(await db.counters.get("payments")).toEqual(counter(3));
    // Already settled: no read needed, the value comes back at once.
    await nativeTransaction(db, ["counters"], async (stores) => {
      const kept = await awaitKeepingOpen(stores.counters, "payments", Promise.resolve(4), 0);
      await requested(stores.counters.put(counter(kept?.value ?? 0)));
    });
    expect(await db.counters.get("payments")).toEqual(counter(4));
    await db.delete();
  });

  it("rejects, with the transaction aborted, when the work it waited for fails", async () => {
    const db = openWalletDb(`native-${crypto.randomUUID()}`);
    // Made where it is awaited: one made before the put could fail first on a busy machine,
    // unhandled for that moment.
    const failing = () =>
      new Promise<never>((_resolve, reject) =>
        setTimeout(() => reject(new Error("the signer is gone")), 10),
      );
    await expect(
      nativeTransaction(db, ["counters"], async (stores) => {
        await requested(stores.counters.put(counter(1)));
        await awaitKeepingOpen(stores.counters, "payments", failing(), 5_000);
      }),
    ).rejects.toThrow("the signer is gone");
    expect(await db.counters.get("payments")).toBeUndefined();
    await db.delete();
  });

  it("rejects with a write's own error when the write fails while it keeps the transaction open", async () => {
    const db = openWalletDb(`native-${crypto.randomUUID()}`);
    await db.counters.add(counter(7));
    const signed = new Promise<number>((resolve) => setTimeout(() => resolve(1), 25));
    await expect(
      nativeTransaction(db, ["counters"], async (stores) => {
        // Answered below, or, once aborted, not at all (as recordFromMemory's writes).
        requested(stores.counters.add(counter(8))).catch(() => undefined);
        await awaitKeepingOpen(stores.counters, "payments", signed, 5_000);
      }),
    ).rejects.toMatchObject({ name: "ConstraintError" });
    expect(await db.counters.get("payments")).toEqual(counter(7));
    await db.delete();
  });

  it("gives up, with the transaction still open, once its patience has run out", async () => {
    const db = openWalletDb(`native-${crypto.randomUUID()}`);
    const never = new Promise<number>(() => undefined);
    await nativeTransaction(db, ["counters"], async (stores) => {
      expect(await awaitKeepingOpen(stores.counters, "payments", never, 20)).toBeUndefined();
      await requested(stores.counters.put(counter(9)));
    });
    expect(await db.counters.get("payments")).toEqual(counter(9));
    await db.delete();
  });
});
