import { afterEach, describe, expect, it } from "vitest";
import { openWalletDb, type WalletDb } from "../db/schema";
import { readAllSums, readSums } from "./budget-sums";

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
