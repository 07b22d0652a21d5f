import { afterEach, describe, expect, it } from "vitest";
import { openWalletDb, type PaymentRecord, type WalletDb } from "../../../lib/db/schema";
import { recount } from "./budget-recount";

let db: WalletDb | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

describe("recount", () => {
  it("adds each charged payment to the sums it was charged to and skips uncharged ones", async () => {
    db = openWalletDb(`recount-${crypto.randomUUID()}`);
    const base = { createdAt: 1, updatedAt: 1, receiver: "r" } as const;
    const charged = (id: string, origin: string, micro: string) =>
      ({
        ...base,
        id,
        origin,
        state: "signed",
        charge: { currency: "USD", micro, chargedAt: 1 },
      }) as unknown as PaymentRecord;
    await db.payments.bulkAdd([
      charged("a", "https://a", "5"),
      charged("b", "https://b", "7"),
      { ...base, id: "c", origin: "https://a", state: "declined" } as unknown as PaymentRecord,
    ]);
    const sums = await recount(db);
    expect(sums.get("global:USD:day:1970-01-01")).toBe(12n);
    expect(sums.get("origin:https://a:USD:none:all")).toBe(5n);
    expect(sums.get("origin:https://b:USD:none:all")).toBe(7n);
    expect(sums.size).toBe(3 + 4 + 4);
  });
});
