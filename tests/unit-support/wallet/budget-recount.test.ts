import { afterEach, describe, expect, it } from "vitest";
import { openWalletDb, type PaymentRecord, type WalletDb } from "../../../lib/db/schema";
import { recount } from "./budget-recount";

let db: WalletDb | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
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
