import { afterEach, describe, expect, it } from "vitest";
import { putSums } from "../../tests/unit-support/wallet/put-sums";
import { openWalletDb, type WalletDb } from "../db/schema";
import { readAllSums, readSums, rowsWith } from "./budget-sums";
import { sumSlotsToCharge } from "./limits";

let db: WalletDb | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

const NOV_30 = Date.parse("2026-11-30T08:00:00Z");
const DEC_1 = Date.parse("2026-12-01T08:00:00Z");

describe("readSums / readAllSums", () => {
  it("reads running sums as bigints; absent slots and slots of an ended period as 0", async () => {
    db = openWalletDb(`sums-${crypto.randomUUID()}`);
    const [day, month] = sumSlotsToCharge("https://a", "USD", NOV_30);
    if (!day || !month) throw new Error("no slots");
    await putSums(db, [
      [day, 123456789012345678901n],
      [month, 7n],
    ]);
    const [nextDay, sameMonth, originDay] = sumSlotsToCharge("https://a", "USD", DEC_1);
    if (!nextDay || !sameMonth || !originDay) throw new Error("no slots");
    expect(await readSums(db, [day, originDay])).toEqual(
      new Map([
        [day.key, 123456789012345678901n],
        [originDay.key, 0n],
      ]),
    );
    // A new day (and month) reads 0 from the slot that still holds November 30.
    expect(await readSums(db, [nextDay, sameMonth])).toEqual(
      new Map([
        [nextDay.key, 0n],
        [sameMonth.key, 0n],
      ]),
    );
    expect(await readAllSums(db)).toEqual(
      new Map([
        [day.key, 123456789012345678901n],
        [month.key, 7n],
      ]),
    );
  });
});

describe("a clock set back behind the rows", () => {
  it("reads and writes the later period a row holds, never the clock's older one", async () => {
    db = openWalletDb(`sums-${crypto.randomUUID()}`);
    const [dec1] = sumSlotsToCharge("https://a", "USD", DEC_1);
    const [nov30] = sumSlotsToCharge("https://a", "USD", NOV_30);
    if (!dec1 || !nov30) throw new Error("no slots");
    await putSums(db, [[dec1, 10n]]);
    expect(await readSums(db, [nov30])).toEqual(new Map([[nov30.key, 10n]]));
    await putSums(db, [[nov30, 15n]]);
    expect(await readAllSums(db)).toEqual(new Map([[dec1.key, 15n]]));
  });
});

describe("rowsWith", () => {
  it("writes each slot into its row, one row per key, keeping the row's other periods", () => {
    const slots = sumSlotsToCharge("https://a", "USD", DEC_1);
    const [day, month] = slots;
    if (!day || !month) throw new Error("no slots");
    const read = new Map([
      [
        "global:USD",
        {
          key: "global:USD",
          periods: {
            month: { at: "2026-11", amount: "9" },
            day: { at: "2026-11-30", amount: "4" },
          },
          updatedAt: 1,
        },
      ],
    ]);
    const rows = rowsWith(read, [day], new Map([[day.key, 5n]]), 2);
    expect(rows).toEqual([
      {
        key: "global:USD",
        periods: { month: { at: "2026-11", amount: "9" }, day: { at: "2026-12-01", amount: "5" } },
        updatedAt: 2,
      },
    ]);
    expect(rowsWith(new Map(), slots, new Map(slots.map((s) => [s.key, 1n])), 2)).toHaveLength(3);
    // What it read is left as it was.
    expect(read.get("global:USD")?.periods.day).toEqual({ at: "2026-11-30", amount: "4" });
  });
});
