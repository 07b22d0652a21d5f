import Dexie from "dexie";
import { afterEach, describe, expect, it } from "vitest";
import { openOldWalletDb, openV4Database } from "../../tests/unit-support/db/old-database";
import { budgetRowsFromV4, openWalletDb, type PaymentRecord, type WalletDb } from "./schema";
import { AWAITS_UNLOCK } from "./settlement-due";

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

/** An offer with a Quote that expires at `expiresAt` (epoch seconds): all the tracker reads of it. */
function quoted(expiresAt: number): PaymentRecord["offer"] {
  return { quote: { expiresAt } } as PaymentRecord["offer"];
}

describe("openWalletDb", () => {
  it("declares payments and budgetSums with the history indexes", async () => {
    db = openWalletDb(`schema-${crypto.randomUUID()}`);
    await db.open();
    expect(db.verno).toBe(9);
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
        "checkAt",
      ].sort(),
    );
    expect(db.payments.schema.idxByName.quoteId?.unique).toBe(true);
    expect(db.budgetSums.schema.primKey.name).toBe("key");
  });

  it("upgrades a version 3 database in place: its payments stay, the history index still serves", async () => {
    const name = `schema-${crypto.randomUUID()}`;
    const old = openOldWalletDb(
      name,
      3,
      "id, createdAt, updatedAt, origin, receiver, state, &quoteId, [origin+createdAt], [receiver+createdAt], [state+createdAt], requestKey, elicitedBy",
    );
    await old.table("payments").add(row("p1", { createdAt: 5, state: "signed" }));
    old.close();
    db = openWalletDb(name);
    await db.open();
    expect(db.verno).toBe(9);
    const signed = await db.payments
      .where("[state+createdAt]")
      .between(["signed", 0], ["signed", 10])
      .toArray();
    expect(signed.map((p) => p.id)).toEqual(["p1"]);
  });

  it("keys the Quotes of version 8's payments by their receiver and jti, so another receiver's same jti is paid", async () => {
    const name = `schema-${crypto.randomUUID()}`;
    const old = openOldWalletDb(
      name,
      8,
      "id, createdAt, &quoteId, [origin+createdAt], [receiver+createdAt], [state+createdAt], requestKey, elicitedBy, checkAt",
    );
    await old
      .table("payments")
      .bulkAdd([
        row("stipendex", { state: "signed", receiver: "https://a.example", quoteId: "q-1" }),
        row("x402", { state: "signed", receiver: "eip155:8453:0xabc" }),
      ]);
    old.close();
    db = openWalletDb(name);
    await db.open();
    expect(db.verno).toBe(9);
    expect((await db.payments.get("stipendex"))?.quoteId).toBe("https://a.example q-1");
    expect((await db.payments.get("x402"))?.quoteId).toBeUndefined();
    await db.payments.add(
      row("other", { receiver: "https://b.example", quoteId: "https://b.example q-1" }),
    );
    await expect(
      db.payments.add(row("again", { quoteId: "https://a.example q-1" })),
    ).rejects.toMatchObject({ name: "ConstraintError" });
  });

  it("upgrades version 4's row per sum into rows of period slots, and keeps every day of the history", async () => {
    const name = `schema-${crypto.randomUUID()}`;
    const old = openV4Database(name);
    await old.table("budgetSums").bulkPut([
      { key: "global:USD:day:2026-11-29", amount: "3", updatedAt: 1 },
      { key: "global:USD:day:2026-11-30", amount: "5", updatedAt: 1 },
      { key: "global:USD:month:2026-11", amount: "8", updatedAt: 1 },
      { key: "origin:http://127.0.0.1:8080:test USD:none:all", amount: "2", updatedAt: 1 },
    ]);
    old.close();
    db = openWalletDb(name);
    await db.open();
    expect(db.verno).toBe(9);
    const rows = await db.budgetSums.toArray();
    expect(rows.map(({ key, periods }) => ({ key, periods }))).toEqual([
      { key: "daily:USD:2026-11-29", periods: { day: { at: "2026-11-29", amount: "3" } } },
      { key: "daily:USD:2026-11-30", periods: { day: { at: "2026-11-30", amount: "5" } } },
      {
        key: "global:USD",
        periods: { day: { at: "2026-11-30", amount: "5" }, month: { at: "2026-11", amount: "8" } },
      },
      {
        key: "origin:http://127.0.0.1:8080:test USD",
        periods: { none: { at: "all", amount: "2" } },
      },
    ]);
  });

  it("makes every payment the chain may still settle, or holding a charge no payment used, due for the tracker, and only those", async () => {
    const name = `schema-${crypto.randomUUID()}`;
    const old = openV4Database(name);
    const charge = { currency: "USD", micro: "1", chargedAt: 1 };
    await old.table("payments").bulkAdd([
      row("signed", { state: "signed", charge }),
      row("refused-by-receiver", { state: "failed", charge }),
      row("claimed", {
        state: "settled",
        charge,
        settlement: { status: "unconfirmed", checkedAt: 1 },
      }),
      row("collected", {
        state: "settled",
        charge,
        settlement: { status: "confirmed", checkedAt: 1 },
      }),
      row("held", { state: "signed", charge, heldReceipt: { status: 200, receipt: "r" } }),
      row("released", { state: "expired" }),
      row("asking", { state: "quoted" }),
      row("uncharged", { state: "signed" }),
      row("elicited", { state: "approved", charge, offer: quoted(1_760_000_120) }),
      row("approved-uncharged", { state: "approved", offer: quoted(1_760_000_120) }),
    ]);
    old.close();
    db = openWalletDb(name);
    await db.open();
    const due = await db.payments.where("checkAt").aboveOrEqual(-Infinity).toArray();
    expect(Object.fromEntries(due.map((p) => [p.id, p.checkAt]))).toEqual({
      signed: 0,
      "refused-by-receiver": 0,
      claimed: 0,
      held: AWAITS_UNLOCK,
      // Charged when its elicitation was approved: looked at once its Quote expires.
      elicited: 1_760_000_120_000,
    });
  });

  it("makes due again a payment the tracker stopped asking about while the chain may still settle it", async () => {
    const name = `schema-${crypto.randomUUID()}`;
    const v7 = openOldWalletDb(
      name,
      7,
      "id, createdAt, &quoteId, [origin+createdAt], [receiver+createdAt], [state+createdAt], requestKey, elicitedBy, checkAt",
    );
    const charge = { currency: "USD", micro: "1", chargedAt: 1 };
    await v7.table("payments").bulkAdd([
      // Given up on after a month without an endpoint (the tracker then dropped checkAt).
      row("given-up", { state: "signed", charge }),
      row("claimed-given-up", { state: "settled", charge }),
      row("scheduled", { state: "signed", charge, checkAt: 5 }),
      row("collected", { state: "settled", charge, settlement: { status: "used", checkedAt: 1 } }),
    ]);
    v7.close();
    db = openWalletDb(name);
    await db.open();
    const due = await db.payments.where("checkAt").aboveOrEqual(-Infinity).toArray();
    expect(Object.fromEntries(due.map((p) => [p.id, p.checkAt]))).toEqual({
      "given-up": 0,
      "claimed-given-up": 0,
      scheduled: 5,
    });
  });

  it("reads a v4 key from the right, so an origin's own colons stay in its row", () => {
    expect(
      budgetRowsFromV4(
        [
          { key: "origin:https://x.example:8443:USD:week:2026-11-23", amount: "1" },
          { key: "origin:https://x.example:8443:USD:week:2026-11-30", amount: "4" },
          { key: "not-a-sum", amount: "9" },
        ],
        7,
      ),
    ).toEqual([
      {
        key: "origin:https://x.example:8443:USD",
        periods: { week: { at: "2026-11-30", amount: "4" } },
        updatedAt: 7,
      },
    ]);
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
