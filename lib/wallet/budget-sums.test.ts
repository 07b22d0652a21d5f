import { afterEach, describe, expect, it } from "vitest";
import { openWalletDb, type PaymentRecord, type WalletDb } from "../db/schema";
import { readAllSums, readSums, recount } from "./budget-sums";

let db: WalletDb | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

describe("readSums / readAllSums", () => {
  it("reads running sums as bigints, absent keys as 0", async () => {
    db = openWalletDb(`sums-${crypto.randomUUID()}`);
    await db.budgetSums.bulkPut([
      { key: "global:USD:day:2026-11-30", amount: "123456789012345678901", updatedAt: 1 },
      { key: "global:USD:month:2026-11", amount: "7", updatedAt: 1 },
    ]);
    expect(await readSums(db, ["global:USD:day:2026-11-30", "absent"])).toEqual(
      new Map([
        ["global:USD:day:2026-11-30", 123456789012345678901n],
        ["absent", 0n],
      ]),
    );
    expect((await readAllSums(db)).size).toBe(2);
  });
});

describe("recount", () => {
  it("adds each charged payment to the sums it names and skips uncharged ones", async () => {
    db = openWalletDb(`recount-${crypto.randomUUID()}`);
    const base = { createdAt: 1, updatedAt: 1, origin: "o", receiver: "r" } as const;
    const charged = (id: string, micro: string, sumKeys: string[]) =>
      ({
        ...base,
        id,
        state: "signed",
        charge: { currency: "USD", micro, sumKeys, chargedAt: 1 },
      }) as unknown as PaymentRecord;
    await db.payments.bulkAdd([
      charged("a", "5", ["k1", "k2"]),
      charged("b", "7", ["k2"]),
      { ...base, id: "c", state: "declined" } as unknown as PaymentRecord,
    ]);
    expect(await recount(db)).toEqual(
      new Map([
        ["k1", 5n],
        ["k2", 12n],
      ]),
    );
  });
});
