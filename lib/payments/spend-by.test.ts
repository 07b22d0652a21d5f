import { describe, expect, it } from "vitest";
import {
  AGENT,
  CALLER,
  makeHarness,
  type SeedFields,
  seedPayment,
  TEST_AUTO_BUDGET,
  x402HttpChallenge,
} from "../../tests/unit-support/payments/test-support";
import { openWalletDb, type PaymentRecord, type WalletDb } from "../db/schema";
import { randomId } from "../random-id";
import { readAllSums } from "../wallet/budget-sums";
import { fileReceipt } from "./receipts";
import { spendBy } from "./spend-by";

/** The seed's network (the x402 fixture pays on Base Sepolia): test money. */
const SEPOLIA = {
  network: "eip155:84532",
  networkName: "Base Sepolia",
  testnet: true,
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
};

/** A seeded payment holding its charge, as signing leaves one (the budgets count it). */
async function seedCharged(db: WalletDb, fields: SeedFields): Promise<PaymentRecord> {
  const seeded = await seedPayment(db, fields);
  const charge = { currency: "test USD", micro: seeded.amount, chargedAt: fields.createdAt };
  await db.payments.update(seeded.id, { charge });
  return { ...seeded, charge };
}

describe("spendBy", () => {
  it("sums the payments that hold a charge per site and per receiver, largest first", async () => {
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
    for (const seed of seeds) {
      await (seed.state === "declined" ? seedPayment(db, seed) : seedCharged(db, seed));
    }
    const { sites, receivers } = await spendBy(db, {});
    const { symbol, decimals } = (await db.payments.toArray())[0] ?? { symbol: "", decimals: 0 };
    expect(sites).toEqual([
      { key: a, ...SEPOLIA, symbol, decimals, atomic: "12000", count: 2 },
      { key: b, ...SEPOLIA, symbol, decimals, atomic: "1000", count: 1 },
    ]);
    expect(receivers).toEqual([
      { key: r2, ...SEPOLIA, symbol, decimals, atomic: "8000", count: 2 },
      { key: r1, ...SEPOLIA, symbol, decimals, atomic: "5000", count: 1 },
    ]);
    expect((await spendBy(db, { origin: b })).receivers).toEqual([
      { key: r2, ...SEPOLIA, symbol, decimals, atomic: "1000", count: 1 },
    ]);
  });

  it("reads in pieces without counting a payment twice or missing one, many at the same time included", async () => {
    const db = openWalletDb(`spend-by-${randomId()}`);
    const times = [1, 1, 1, 1, 1, 2, 3, 3, 4, 5, 5, 5];
    for (const [i, createdAt] of times.entries()) {
      await (i === 6 ? seedPayment : seedCharged)(db, {
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
      await seedCharged(db, { createdAt, state: "settled", amount: "1" });
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

  it("never adds test money to real money, nor one network's money to another's", async () => {
    const db = openWalletDb(`spend-by-${randomId()}`);
    const site = "https://a.example";
    const base = {
      network: "eip155:8453",
      networkName: "Base",
      testnet: false,
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    } as const;
    const polygon = {
      network: "eip155:137",
      networkName: "Polygon",
      testnet: false,
      asset: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
    } as const;
    // The seed is test money: USDC on Base Sepolia.
    await seedCharged(db, { createdAt: 1, origin: site, state: "settled", amount: "5000000" });
    for (const [i, { network, asset }] of [base, polygon].entries()) {
      const real = await seedCharged(db, {
        createdAt: 2 + i,
        origin: site,
        state: "settled",
        amount: "1000",
      });
      await db.payments.update(real.id, { network, asset });
    }
    const { sites } = await spendBy(db, {});
    // Three totals (5 test USDC, 0.001 USDC on Base, 0.001 on Polygon), never one "5.002 USDC".
    const usdc = { key: site, symbol: "USDC", decimals: 6, count: 1 };
    // Real money first, however much more test money there is.
    expect(sites).toEqual([
      { ...usdc, ...base, atomic: "1000" },
      { ...usdc, ...polygon, atomic: "1000" },
      { ...usdc, ...SEPOLIA, atomic: "5000000" },
    ]);
  });

  it("puts the larger sum first as the person reads it, whatever each token's decimals", async () => {
    const db = openWalletDb(`spend-by-${randomId()}`);
    // 2 test USDC (6 decimals) and 0.000001 of an 18-decimal test token: 1,000,000,000,000 units.
    const usdc = await seedCharged(db, {
      createdAt: 1,
      origin: "https://usdc.example",
      state: "settled",
      amount: "2000000",
    });
    const tiny = await seedCharged(db, {
      createdAt: 2,
      origin: "https://tiny.example",
      state: "settled",
      amount: "1000000000000",
    });
    await db.payments.update(tiny.id, { decimals: 18, symbol: "TINY" });
    const { sites } = await spendBy(db, {});
    expect(sites.map((total) => total.key)).toEqual([usdc.origin, tiny.origin]);
  });

  it("counts a payment whatever its state while it holds a charge, and not once the charge is given back", async () => {
    const db = openWalletDb(`spend-by-${randomId()}`);
    await seedCharged(db, { createdAt: 1, state: "failed", amount: "3000" });
    const released = await seedCharged(db, { createdAt: 2, state: "signed", amount: "4000" });
    // As the ledger gives a charge back: the charge moves to releasedCharge.
    const { charge, ...rest } = released;
    if (charge === undefined) return expect.unreachable("seeded without its charge");
    await db.payments.put({
      ...rest,
      state: "expired",
      releasedCharge: { ...charge, releasedAt: 3 },
    });
    expect((await spendBy(db, {})).sites.map((s) => [s.atomic, s.count])).toEqual([["3000", 1]]);
  });

  it("keeps a payment its page reported refused in the totals while it stays charged", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } });
    const { paymentId } = await h.engine.pay(
      { requestId: "x", challenge: x402HttpChallenge(2) },
      CALLER,
    );
    // The page (untrusted) says its own paid request was refused: the receiver may still collect it.
    await fileReceipt(
      h.receipts,
      { paymentId, status: 200, receipt: null, error: { code: -32402, message: "no" } },
      AGENT,
    );
    expect((await h.db.payments.get(paymentId))?.state).toBe("failed");
    expect([...(await readAllSums(h.db)).values()]).toContain(10000n);
    const { sites } = await spendBy(h.db, { origin: AGENT });
    expect(sites.map((s) => s.atomic)).toEqual(["10000"]);
  });
});
