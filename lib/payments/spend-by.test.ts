import { describe, expect, it } from "vitest";
import { seedPayment } from "../../tests/unit-support/payments/test-support";
import { openWalletDb, type PaymentRecord } from "../db/schema";
import { randomId } from "../random-id";
import { spendBy } from "./spend-by";

describe("spendBy", () => {
  it("sums signed and settled payments per site and per receiver, largest first", async () => {
    const db = openWalletDb(`spend-by-${randomId()}`);
    const a = "https://a.example";
    const b = "https://b.example";
    const r1 = "https://r1.example";
    const r2 = "https://r2.example";
    const seeds = [
      { createdAt: 1, origin: a, receiver: r1, state: "settled" as const, amount: "5000" },
      { createdAt: 2, origin: a, receiver: r2, state: "signed" as const, amount: "7000" },
      { createdAt: 3, origin: b, receiver: r2, state: "settled" as const, amount: "1000" },
      { createdAt: 4, origin: b, receiver: r1, state: "declined" as const, amount: "900000" },
    ];
    for (const seed of seeds) await seedPayment(db, seed);
    const { sites, receivers } = await spendBy(db, {});
    const { symbol, decimals } = (await db.payments.toArray())[0] ?? { symbol: "", decimals: 0 };
    expect(sites).toEqual([
      { key: a, symbol, decimals, atomic: "12000", count: 2 },
      { key: b, symbol, decimals, atomic: "1000", count: 1 },
    ]);
    expect(receivers).toEqual([
      { key: r2, symbol, decimals, atomic: "8000", count: 2 },
      { key: r1, symbol, decimals, atomic: "5000", count: 1 },
    ]);
    expect((await spendBy(db, { origin: b })).receivers).toEqual([
      { key: r2, symbol, decimals, atomic: "1000", count: 1 },
    ]);
  });

  it("reads in pieces without counting a payment twice or missing one, many at the same time included", async () => {
    const db = openWalletDb(`spend-by-${randomId()}`);
    const times = [1, 1, 1, 1, 1, 2, 3, 3, 4, 5, 5, 5];
    for (const [i, createdAt] of times.entries()) {
      await seedPayment(db, {
        createdAt,
        origin: `https://site-${i % 2}.example`,
        receiver: `https://r${i % 3}.example`,
        state: i === 6 ? "declined" : "settled",
        amount: String(10 ** i),
      });
    }
    const whole = await spendBy(db, {}, { piece: 1_000 });
    expect(whole.sites.reduce((n, total) => n + total.count, 0)).toBe(times.length - 1);
    for (const piece of [1, 2, 3, 5]) {
      expect(await spendBy(db, {}, { piece })).toEqual(whole);
      expect(await spendBy(db, { from: 3 }, { piece })).toEqual(
        await spendBy(db, { from: 3 }, { piece: 1_000 }),
      );
      expect(await spendBy(db, { text: "r1" }, { piece })).toEqual(
        await spendBy(db, { text: "r1" }, { piece: 1_000 }),
      );
    }
  });

  it("stops before its next piece once its signal is aborted, with the signal's reason", async () => {
    const db = openWalletDb(`spend-by-${randomId()}`);
    for (const createdAt of [1, 2, 3, 4]) {
      await seedPayment(db, { createdAt, state: "settled", amount: "1" });
    }
    const controller = new AbortController();
    const abortAtSecond = (payment: PaymentRecord) => {
      if (payment.createdAt === 2) controller.abort(new Error("asked again"));
      return payment;
    };
    db.payments.hook("reading", abortAtSecond);
    await expect(spendBy(db, {}, { piece: 2, signal: controller.signal })).rejects.toThrow(
      "asked again",
    );
    db.payments.hook("reading").unsubscribe(abortAtSecond);
    const aborted = new AbortController();
    aborted.abort(new Error("gone"));
    await expect(spendBy(db, {}, { signal: aborted.signal })).rejects.toThrow("gone");
  });
});
