import Dexie from "dexie";
import { afterEach, describe, expect, it } from "vitest";
import { openWalletDb, type PaymentRecord, type WalletDb } from "./schema";

let db: WalletDb | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

/** Only the indexed fields matter to these tests. */
function row(id: string, fields: Partial<PaymentRecord>): PaymentRecord {
  return {
    id,
    createdAt: 0,
    updatedAt: 0,
    origin: "o",
    receiver: "r",
    state: "quoted",
    ...fields,
  } as PaymentRecord;
}

describe("openWalletDb", () => {
  it("declares payments and budgetSums with the history indexes", async () => {
    db = openWalletDb(`schema-${crypto.randomUUID()}`);
    await db.open();
    expect(db.verno).toBe(4);
    const indexes = db.payments.schema.indexes.map((index) => index.name).sort();
    expect(indexes).toEqual(
      [
        "createdAt",
        "quoteId",
        "[origin+createdAt]",
        "[receiver+createdAt]",
        "[state+createdAt]",
        "requestKey",
        "elicitedBy",
      ].sort(),
    );
    expect(db.payments.schema.idxByName.quoteId?.unique).toBe(true);
    expect(db.budgetSums.schema.primKey.name).toBe("key");
  });

  it("upgrades a version 3 database in place: its payments stay, the history index still serves", async () => {
    const name = `schema-${crypto.randomUUID()}`;
    const old = new Dexie(name);
    old.version(3).stores({
      payments:
        "id, createdAt, updatedAt, origin, receiver, state, &quoteId, [origin+createdAt], [receiver+createdAt], [state+createdAt], requestKey, elicitedBy",
      budgetSums: "key",
      counters: "name",
      settings: "key",
    });
    await old.table("payments").add(row("p1", { createdAt: 5, state: "signed" }));
    old.close();
    db = openWalletDb(name);
    await db.open();
    expect(db.verno).toBe(4);
    const signed = await db.payments
      .where("[state+createdAt]")
      .between(["signed", 0], ["signed", 10])
      .toArray();
    expect(signed.map((p) => p.id)).toEqual(["p1"]);
  });

  it("keeps quote ids unique where present and allows many rows without one", async () => {
    db = openWalletDb(`schema-${crypto.randomUUID()}`);
    await db.payments.add(row("a", { quoteId: "q1" }));
    await expect(db.payments.add(row("b", { quoteId: "q1" }))).rejects.toBeInstanceOf(
      Dexie.ConstraintError,
    );
    await db.payments.bulkAdd([row("c", {}), row("d", {})]);
    expect(await db.payments.count()).toBe(3);
  });

  it("answers history queries by origin and time without a scan of other origins", async () => {
    db = openWalletDb(`schema-${crypto.randomUUID()}`);
    await db.payments.bulkAdd([
      row("1", { origin: "https://a", createdAt: 10 }),
      row("2", { origin: "https://a", createdAt: 30 }),
      row("3", { origin: "https://b", createdAt: 20 }),
      row("4", { origin: "https://a", createdAt: 50 }),
    ]);
    const recent = await db.payments
      .where("[origin+createdAt]")
      .between(["https://a", 20], ["https://a", Dexie.maxKey])
      .primaryKeys();
    expect(recent).toEqual(["2", "4"]);
  });

  it("migrates a version 1 database: payments kept, their count stored", async () => {
    const name = `schema-${crypto.randomUUID()}`;
    const v1 = new Dexie(name);
    v1.version(1).stores({
      payments:
        "id, createdAt, updatedAt, origin, receiver, state, &quoteId, [origin+createdAt], [receiver+createdAt], [state+createdAt]",
      budgetSums: "key",
    });
    await v1.table("payments").bulkAdd([row("a", {}), row("b", {}), row("c", {})]);
    v1.close();
    db = openWalletDb(name);
    expect(await db.payments.count()).toBe(3);
    expect(await db.counters.get("payments")).toEqual({ name: "payments", value: 3 });
  });
});
