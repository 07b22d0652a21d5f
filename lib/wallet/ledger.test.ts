import { afterEach, describe, expect, it } from "vitest";
import { openV4Database } from "../../tests/unit-support/db/old-database";
import { recount } from "../../tests/unit-support/wallet/budget-recount";
import { putSums } from "../../tests/unit-support/wallet/put-sums";
import { openWalletDb, type WalletDb } from "../db/schema";
import { AWAITS_UNLOCK } from "../db/settlement-due";
import { transactionCount } from "../db/transaction-count";
import { spendPerDay, spendSummaries } from "../payments/spend";
import type { Offer, PaymentOption } from "../protocol/offer";
import {
  type AutoPaymentOutcome,
  type AutoSignatures,
  type LedgerMemory,
  recordAutoPayment,
} from "./auto-payment";
import { readAllSums, readSums } from "./budget-sums";
import {
  advancePayment,
  COLLECTED_AFTER_ALL,
  chargeAndSign,
  deleteHistory,
  type NewPayment,
  paymentCount,
  recordQuote,
  recordRefusal,
  recordSettlement,
  releaseUncollectable,
  SETTLEMENT_UNDONE,
  STAYS_CHARGED,
  scheduleSettlementChecks,
  settlementChecksDueNow,
  UNCOLLECTABLE_REASON,
  undoSettlement,
} from "./ledger";
import { dailySlot, sumKeysToCharge, sumSlotsToCharge } from "./limits";
import type { BudgetPeriod } from "./periods";
import type { PolicySettings } from "./policy-settings";
import { KEPT_OFFER_CHARS } from "./unpaid-record";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAY_TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
const AGENT = "https://agent.example";
const NOW = Date.parse("2026-11-30T12:00:00Z");

let db: WalletDb | undefined;
let dbCount = 0;
function freshDb(): WalletDb {
  dbCount += 1;
  db = openWalletDb(`ledger-test-${dbCount}-${crypto.randomUUID()}`);
  return db;
}
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

function option(amount: bigint): PaymentOption {
  return {
    scheme: "exact",
    network: "eip155:8453",
    chainId: 8453,
    asset: USDC,
    amount,
    decimals: 6,
    symbol: "USDC",
    payTo: PAY_TO,
    maxTimeoutSeconds: 60,
    eip712: { name: "USD Coin", version: "2" },
    raw: {},
  };
}

function offer(amount: bigint, quoteId?: string, receiver = "https://api.example"): Offer {
  return {
    protocol: quoteId === undefined ? "x402-v2" : "stipendex",
    transport: "http",
    receiver,
    resource: { kind: "http", method: "GET", url: "https://api.example/search?q=x" },
    description: "One search",
    options: [option(amount)],
    ...(quoteId === undefined
      ? {}
      : {
          quote: {
            jws: `jws-${quoteId}`,
            id: quoteId,
            hash: `h-${quoteId}`,
            issuedAt: 0,
            expiresAt: 0,
          },
        }),
  };
}

function settings(budget: { amount: bigint; period: BudgetPeriod }, caps = {}): PolicySettings {
  return {
    globalCaps: { USD: caps },
    origins: {
      [AGENT]: { currency: "USD", ...budget, autoApproveUpTo: 10_000n, perCallMax: 1_000_000n },
    },
    receivers: { allow: [], deny: [] },
    networks: ["eip155:8453"],
    assets: [{ network: "eip155:8453", asset: USDC, decimals: 6, symbol: "USDC", currency: "USD" }],
  };
}

/** A payment recorded as "quoted". */
function quoted(wdb: WalletDb, amount = 1n, quoteId?: string, origin = AGENT, at = NOW) {
  return recordQuote(
    wdb,
    {
      origin,
      receiver: "https://api.example",
      offer: offer(amount, quoteId),
      option: option(amount),
    },
    at,
  );
}

async function approved(wdb: WalletDb, amount: bigint, quoteId?: string, origin = AGENT, at = NOW) {
  const payment = await quoted(wdb, amount, quoteId, origin, at);
  return advancePayment(wdb, payment.id, { state: "approved", confirmation: "conf-jws" }, at);
}

describe("a Quote is known by its receiver and its jti", () => {
  const OTHER = "https://other-receiver.example";

  it("pays two receivers' Quotes that share a jti, each once, when the person approves them", async () => {
    const wdb = freshDb();
    const pay = async (receiver: string) => {
      const input = {
        origin: AGENT,
        receiver,
        offer: offer(1n, "q-1", receiver),
        option: option(1n),
      };
      const payment = await recordQuote(wdb, input, NOW);
      await advancePayment(wdb, payment.id, { state: "approved", confirmation: "c" }, NOW);
      return chargeAndSign(wdb, {
        paymentId: payment.id,
        settings: settings({ amount: 10n ** 9n, period: "day" }),
        sign: async () => `proof-${receiver}`,
        now: NOW,
      });
    };
    expect((await pay("https://api.example")).state).toBe("signed");
    const other = await pay(OTHER);
    expect(other.state).toBe("signed");
    expect(other.quoteId).toBe(`${OTHER} q-1`);
    await expect(pay(OTHER)).rejects.toMatchObject({ code: "duplicate-quote" });
  });

  it("pays them on a budget too, and still refuses the same receiver's jti again", async () => {
    const wdb = freshDb();
    expect((await auto(wdb, 1n, { quoteId: "q-1" })).kind).toBe("signed");
    expect((await auto(wdb, 1n, { quoteId: "q-1", receiver: OTHER })).kind).toBe("signed");
    expect((await auto(wdb, 1n, { quoteId: "q-1", receiver: OTHER })).kind).toBe("known");
  });
});

describe("recordQuote", () => {
  it("stores the chosen option's amount as a string of atomic units, state quoted", async () => {
    const wdb = freshDb();
    const payment = await quoted(wdb, 5000n, "q1");
    // The Quote id is claimed when the payment is signed, not before.
    expect((await wdb.payments.get(payment.id))?.quoteId).toBeUndefined();
    expect(await wdb.payments.get(payment.id)).toMatchObject({
      state: "quoted",
      amount: "5000",
      decimals: 6,
      symbol: "USDC",
      network: "eip155:8453",
      asset: USDC,
      payTo: PAY_TO,
      createdAt: NOW,
      origin: AGENT,
    });
  });

  it("refuses a quote id once signed, and accepts any number of quote-less x402 offers", async () => {
    const wdb = freshDb();
    const input = { origin: AGENT, receiver: "r", offer: offer(1n, "q1"), option: option(1n) };
    const first = await approved(wdb, 1n, "q1");
    // Unsigned, the Quote is not taken: a declined or pending request never blocks its payment.
    const second = await recordQuote(wdb, input);
    await chargeAndSign(wdb, {
      paymentId: first.id,
      settings: settings({ amount: 10n ** 9n, period: "day" }),
      sign: async () => "proof",
      now: NOW,
    });
    await expect(recordQuote(wdb, input)).rejects.toMatchObject({
      name: "WalletError",
      code: "duplicate-quote",
    });
    await expect(recordQuote(wdb, input)).rejects.toThrow(
      "quote q1 of https://api.example was already recorded",
    );
    await advancePayment(wdb, second.id, { state: "approved" }, NOW);
    await expect(
      chargeAndSign(wdb, {
        paymentId: second.id,
        settings: settings({ amount: 10n ** 9n, period: "day" }),
        sign: async () => "proof-2",
        now: NOW,
      }),
    ).rejects.toMatchObject({ name: "WalletError", code: "quote-already-paid" });
    expect((await wdb.payments.get(second.id))?.state).toBe("refused");
    const x402 = { ...input, offer: offer(1n) };
    await recordQuote(wdb, x402);
    await recordQuote(wdb, x402);
    expect(await wdb.payments.count()).toBe(4);
  });

  it("records one payment for an elicitation sent twice at once, and returns it to both", async () => {
    const wdb = freshDb();
    const input = {
      origin: AGENT,
      receiver: "r",
      offer: offer(1n, "q1"),
      option: option(1n),
      elicitedBy: "caller h-q1",
    };
    const [first, repeat] = await Promise.all([recordQuote(wdb, input), recordQuote(wdb, input)]);
    expect(repeat).toEqual(first);
    expect(await wdb.payments.count()).toBe(1);
    expect(await paymentCount(wdb)).toBe(1);
  });
});

describe("advancePayment", () => {
  it("records declines with their reason and confirmation", async () => {
    const wdb = freshDb();
    const p = await quoted(wdb);
    const declined = await advancePayment(
      wdb,
      p.id,
      {
        state: "declined",
        reason: "the person said no",
        confirmation: "c",
      },
      NOW,
    );
    expect(await wdb.payments.get(p.id)).toEqual(declined);
    expect(declined).toMatchObject({
      state: "declined",
      reason: "the person said no",
      confirmation: "c",
    });
  });

  it("keeps only the summary of a large price once its request ends unpaid, on every path", async () => {
    const wdb = freshDb();
    const bulk = "A".repeat(60_000);
    const large = (amount: bigint, quoteId?: string): NewPayment => ({
      origin: AGENT,
      receiver: "https://api.example",
      offer: {
        ...offer(amount, quoteId),
        description: bulk,
        options: [{ ...option(amount), raw: { bulk } }],
      },
      option: option(amount),
    });
    const storedSize = async (id: string) =>
      JSON.stringify((await wdb.payments.get(id))?.offer, (_key, member: unknown) =>
        typeof member === "bigint" ? member.toString() : member,
      ).length;
    const declined = await recordQuote(wdb, large(1n), NOW);
    await advancePayment(wdb, declined.id, { state: "declined", reason: "no" }, NOW);
    const refused = await recordRefusal(wdb, large(2n, "q-replayed"), "Replayed quote", NOW);
    const overBudget = await recordQuote(wdb, large(5_000_000n), NOW);
    await advancePayment(wdb, overBudget.id, { state: "approved", confirmation: "c" }, NOW);
    await expect(
      chargeAndSign(wdb, {
        paymentId: overBudget.id,
        settings: settings({ amount: 1_000n, period: "day" }),
        sign: async () => "proof",
        now: NOW,
      }),
    ).rejects.toThrow(/budget/);
    for (const { id } of [declined, refused, overBudget]) {
      expect(await storedSize(id)).toBeLessThan(KEPT_OFFER_CHARS);
      expect((await wdb.payments.get(id))?.offerTrimmed).toBe(true);
    }
    // A request that may still be paid keeps its price whole.
    const waiting = await recordQuote(wdb, large(3n), NOW);
    expect(await storedSize(waiting.id)).toBeGreaterThan(120_000);
  });

  it("throws invalid-transition on a forbidden move and leaves the record as it was", async () => {
    const wdb = freshDb();
    const p = await quoted(wdb);
    await expect(
      advancePayment(wdb, p.id, { state: "settled", receipt: "r" }, NOW),
    ).rejects.toMatchObject({ name: "WalletError", code: "invalid-transition" });
    expect((await wdb.payments.get(p.id))?.state).toBe("quoted");
  });

  it("throws payment-not-found for an unknown id", async () => {
    await expect(
      advancePayment(freshDb(), "nope", { state: "approved" }, NOW),
    ).rejects.toMatchObject({
      name: "WalletError",
      code: "payment-not-found",
    });
  });

  it("settles a signed payment with its receipt", async () => {
    const wdb = freshDb();
    const p = await approved(wdb, 5000n, "q1");
    await chargeAndSign(wdb, {
      paymentId: p.id,
      settings: settings({ amount: 10n ** 9n, period: "day" }),
      sign: async () => "proof",
      now: NOW,
    });
    const settled = await advancePayment(
      wdb,
      p.id,
      { state: "settled", receipt: "receipt-jws" },
      NOW,
    );
    expect(settled).toMatchObject({ state: "settled", receipt: "receipt-jws", proof: "proof" });
  });
});

describe("chargeAndSign", () => {
  it("signs, stores the proof and adds the amount to every running sum", async () => {
    const wdb = freshDb();
    const p = await approved(wdb, 250_000n, "q1");
    const signed = await chargeAndSign(wdb, {
      paymentId: p.id,
      settings: settings({ amount: 1_000_000n, period: "week" }),
      sign: async () => "proof-jws",
      now: NOW,
    });
    expect(signed).toMatchObject({ state: "signed", proof: "proof-jws", confirmation: "conf-jws" });
    expect(await readAllSums(wdb)).toEqual(
      new Map([
        ["global:USD:day:2026-11-30", 250_000n],
        ["global:USD:month:2026-11", 250_000n],
        [`origin:${AGENT}:USD:day:2026-11-30`, 250_000n],
        [`origin:${AGENT}:USD:week:2026-11-30`, 250_000n],
        [`origin:${AGENT}:USD:month:2026-11`, 250_000n],
        [`origin:${AGENT}:USD:none:all`, 250_000n],
        ["daily:USD:2026-11-30:day:2026-11-30", 250_000n],
      ]),
    );
    // Three rows: all sites, this site, and the day's spend for the history.
    expect(await wdb.budgetSums.count()).toBe(3);
  });

  it("refuses to charge a payment twice (one quote, one payment)", async () => {
    const wdb = freshDb();
    const p = await approved(wdb, 1000n, "q1");
    const request = {
      paymentId: p.id,
      settings: settings({ amount: 10n ** 9n, period: "day" }),
      sign: async () => "proof",
      now: NOW,
    };
    const results = await Promise.allSettled(
      [1, 2, 3, 4, 5].map(() => chargeAndSign(wdb, request)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({
        name: "WalletError",
        code: "quote-already-paid",
      });
    }
    expect((await readAllSums(wdb)).get("global:USD:day:2026-11-30")).toBe(1000n);
  });

  it("only charges approved payments", async () => {
    const wdb = freshDb();
    const p = await quoted(wdb);
    await expect(
      chargeAndSign(wdb, {
        paymentId: p.id,
        settings: settings({ amount: 10n, period: "day" }),
        sign: async () => "x",
      }),
    ).rejects.toMatchObject({ name: "WalletError", code: "invalid-transition" });
    expect(await wdb.budgetSums.count()).toBe(0);
  });

  it("re-checks caps inside the transaction and records the refusal without the signature", async () => {
    const wdb = freshDb();
    const p = await approved(wdb, 2_000_000n, "q1");
    const failure = chargeAndSign(wdb, {
      paymentId: p.id,
      settings: settings({ amount: 1_000_000n, period: "day" }),
      sign: async () => "SECRET-PROOF",
      now: NOW,
    });
    await expect(failure).rejects.toMatchObject({ name: "WalletError", code: "budget-exhausted" });
    await expect(failure).rejects.toThrow(/^budget exhausted: this site's daily budget/);
    const stored = await wdb.payments.get(p.id);
    expect(stored?.state).toBe("refused");
    expect(stored?.reason).toMatch(/^budget exhausted/);
    const everything = JSON.stringify(await wdb.payments.toArray(), (_key, value) =>
      typeof value === "bigint" ? value.toString() : value,
    );
    expect(everything).toContain("budget exhausted");
    expect(everything).not.toContain("SECRET-PROOF");
    expect(await wdb.budgetSums.count()).toBe(0);
  });

  it("stores a budget's approval with the signature, in the same transaction", async () => {
    const wdb = freshDb();
    const p = await quoted(wdb, 5000n, "q1");
    const signed = await chargeAndSign(wdb, {
      paymentId: p.id,
      settings: settings({ amount: 1_000_000n, period: "day" }),
      sign: async () => "proof-jws",
      now: NOW,
      budgetApproval: { confirmation: "policy-conf", askIfOverSiteBudget: true },
    });
    expect(signed).toMatchObject({
      state: "signed",
      proof: "proof-jws",
      confirmation: "policy-conf",
      approvedBy: "policy",
    });
    expect(await wdb.payments.get(p.id)).toEqual(signed);
  });

  it("leaves a budget's approval over the site's budget alone unwritten, or refused once not asking", async () => {
    const wdb = freshDb();
    const s = settings({ amount: 4000n, period: "day" });
    const p = await quoted(wdb, 5000n, "q1");
    const charge = (askIfOverSiteBudget: boolean) =>
      chargeAndSign(wdb, {
        paymentId: p.id,
        settings: s,
        sign: async () => "SECRET-PROOF",
        now: NOW,
        budgetApproval: { confirmation: "policy-conf", askIfOverSiteBudget },
      });
    await expect(charge(true)).rejects.toMatchObject({
      code: "budget-exhausted",
      rule: "origin-budget",
    });
    expect(await wdb.payments.get(p.id)).toEqual(p);
    await expect(charge(false)).rejects.toMatchObject({ code: "budget-exhausted" });
    expect(await wdb.payments.get(p.id)).toMatchObject({
      state: "refused",
      approvedBy: "policy",
      reason: expect.stringMatching(/^budget exhausted: this site's daily budget/),
    });
    expect((await wdb.payments.get(p.id))?.proof).toBeUndefined();
    expect(await wdb.budgetSums.count()).toBe(0);
  });

  it("refuses when the asset is no longer allowed at charge time", async () => {
    const wdb = freshDb();
    const p = await approved(wdb, 1000n);
    const s = { ...settings({ amount: 10n ** 9n, period: "day" }), assets: [] };
    await expect(
      chargeAndSign(wdb, { paymentId: p.id, settings: s, sign: async () => "x", now: NOW }),
    ).rejects.toMatchObject({ name: "WalletError", code: "charge-not-allowed" });
    expect((await wdb.payments.get(p.id))?.state).toBe("refused");
  });

  it("RACE: 100 concurrent charges against a budget for exactly 10 sign exactly 10", async () => {
    const wdb = freshDb();
    const price = 50_000n;
    const s = settings(
      { amount: price * 10n, period: "day" },
      { day: 10n ** 12n, month: 10n ** 12n },
    );
    const payments = await Promise.all(
      Array.from({ length: 100 }, (_, i) => approved(wdb, price, `q${i}`)),
    );
    const results = await Promise.allSettled(
      payments.map((p, i) =>
        chargeAndSign(wdb, {
          paymentId: p.id,
          settings: s,
          sign: async () => `proof-${i}`,
          now: NOW,
        }),
      ),
    );
    const signed = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(signed).toHaveLength(10);
    expect(refused).toHaveLength(90);
    for (const r of refused) {
      expect(r.reason).toMatchObject({ name: "WalletError", code: "budget-exhausted" });
      expect(String(r.reason.message)).toContain("budget exhausted");
    }
    expect(await wdb.payments.filter((p) => p.state === "signed").count()).toBe(10);
    const refusedRows = await wdb.payments.filter((p) => p.state === "refused").toArray();
    expect(refusedRows).toHaveLength(90);
    for (const row of refusedRows) {
      expect(row.reason).toContain("budget exhausted");
      expect(row.proof).toBeUndefined();
      expect(row.charge).toBeUndefined();
    }
    const sums = await readAllSums(wdb);
    expect(sums.get(`origin:${AGENT}:USD:day:2026-11-30`)).toBe(price * 10n);
    expect(sums.get("global:USD:day:2026-11-30")).toBe(price * 10n);
    expect(sums).toEqual(await recount(wdb));
  });
});

/** mulberry32: a small seeded PRNG so a failing run can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * An automatic payment recorded as signed and charged, refused over the global
 * `dayCap`, or left to the person over the site's `budget` alone.
 */
const auto = (
  wdb: WalletDb,
  amount: bigint,
  extra: {
    quoteId?: string;
    receiver?: string;
    requestKey?: string;
    elicitedBy?: string;
    budget?: bigint;
    dayCap?: bigint;
    now?: number;
    remembered?: LedgerMemory;
    sign?: () => Promise<AutoSignatures>;
  } = {},
) =>
  recordAutoPayment(wdb, {
    payment: {
      origin: AGENT,
      receiver: extra.receiver ?? "https://api.example",
      offer: offer(amount, extra.quoteId, extra.receiver),
      option: option(amount),
      ...(extra.requestKey === undefined ? {} : { requestKey: extra.requestKey }),
    },
    sign: extra.sign ?? (async () => ({ confirmation: "conf-jws", proof: "proof-jws" })),
    settings: settings(
      { amount: extra.budget ?? 1_000_000n, period: "day" },
      extra.dayCap === undefined ? {} : { day: extra.dayCap },
    ),
    ...(extra.elicitedBy === undefined ? {} : { elicitedBy: extra.elicitedBy }),
    now: extra.now ?? NOW,
    ...(extra.remembered === undefined ? {} : { remembered: extra.remembered }),
  });

describe("recordAutoPayment", () => {
  it("stores a new payment signed, charged, counted and holding its Quote id, in one transaction", async () => {
    // Dexie binds the connection's transaction() when it opens: spy on the prototype first.
    const opened: string[] = [];
    const open = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args) {
      opened.push(String(args[1] ?? "readonly"));
      return open.apply(this, args);
    } as typeof open;
    const wdb = freshDb();
    let outcome: Awaited<ReturnType<typeof auto>>;
    try {
      await wdb.open();
      opened.length = 0;
      outcome = await auto(wdb, 5_000n, { quoteId: "q1", requestKey: "r1" });
    } finally {
      IDBDatabase.prototype.transaction = open;
    }
    expect(opened).toEqual(["readwrite"]);
    if (outcome.kind !== "signed") return expect.unreachable(outcome.kind);
    expect(await wdb.payments.get(outcome.payment.id)).toMatchObject({
      state: "signed",
      approvedBy: "policy",
      confirmation: "conf-jws",
      proof: "proof-jws",
      quoteId: "https://api.example q1",
      requestKey: "r1",
      charge: { currency: "USD", micro: "5000" },
    });
    expect(await paymentCount(wdb)).toBe(1);
    expect(await readAllSums(wdb)).toEqual(outcome.sums);
    expect([...outcome.sums.values()].every((sum) => sum === 5_000n)).toBe(true);
    expect(await recount(wdb)).toEqual(await readAllSums(wdb));
  });

  it("writes nothing for a request, an elicitation or a Quote the ledger already knows", async () => {
    const wdb = freshDb();
    await auto(wdb, 1n, { quoteId: "q1", requestKey: "r1" });
    await recordQuote(wdb, {
      origin: AGENT,
      receiver: "https://api.example",
      offer: offer(1n, "q2"),
      option: option(1n),
      elicitedBy: "caller h-q2",
    });
    const before = await wdb.payments.count();
    expect(await auto(wdb, 1n, { requestKey: "r1" })).toEqual({ kind: "known" });
    expect(await auto(wdb, 1n, { quoteId: "q1", requestKey: "r2" })).toEqual({ kind: "known" });
    expect(await auto(wdb, 1n, { quoteId: "q2", elicitedBy: "caller h-q2" })).toEqual({
      kind: "known",
    });
    expect(await wdb.payments.count()).toBe(before);
  });

  it("re-checks the caps against the stored sums: over a global one, a refused entry without signature or Quote id", async () => {
    const wdb = freshDb();
    await auto(wdb, 6_000n, { dayCap: 10_000n });
    const outcome = await auto(wdb, 6_000n, { quoteId: "q3", dayCap: 10_000n });
    if (outcome.kind !== "refused") return expect.unreachable(outcome.kind);
    expect(outcome.error).toMatchObject({ name: "WalletError", code: "budget-exhausted" });
    const refused = await wdb.payments.filter((p) => p.state === "refused").toArray();
    expect(refused).toHaveLength(1);
    expect(refused[0]?.proof).toBeUndefined();
    expect(refused[0]?.quoteId).toBeUndefined();
    expect(await paymentCount(wdb)).toBe(2);
    expect([...(await readAllSums(wdb)).values()].every((sum) => sum === 6_000n)).toBe(true);
  });

  // Black-box review: payments made at once under a budget covering some were refused once the
  // others had spent it, though a payment over the site's budget is asked about, not refused.
  it("writes nothing over the site's budget alone, remembered or not: the person is asked instead", async () => {
    const wdb = freshDb();
    const first = await auto(wdb, 6_000n, { budget: 10_000n });
    if (first.kind !== "signed") return expect.unreachable(first.kind);
    const stale = new Map([...first.sums].map(([key]) => [key, 0n]));
    for (const remembered of [undefined, { sums: stale, payments: 0 }]) {
      const outcome = await auto(wdb, 6_000n, {
        quoteId: "q3",
        budget: 10_000n,
        ...(remembered ? { remembered } : {}),
      });
      expect(outcome).toEqual({ kind: "over-site-budget" });
    }
    expect(await wdb.payments.count()).toBe(1);
    expect(await paymentCount(wdb)).toBe(1);
    expect([...(await readAllSums(wdb)).values()].every((sum) => sum === 6_000n)).toBe(true);
  });
});

describe("recordAutoPayment from what the caller remembers", () => {
  /** Read-write transactions `run` opened. */
  async function readWrites(run: () => Promise<unknown>): Promise<number> {
    const before = transactionCount.readwrite;
    await run();
    return transactionCount.readwrite - before;
  }
  const memoryAfter = (outcome: AutoPaymentOutcome): LedgerMemory => {
    if (outcome.kind !== "signed") throw new Error(`not signed: ${outcome.kind}`);
    return { sums: outcome.sums, payments: outcome.payments };
  };

  it("records in one transaction what the two-step path records, when the memory is right", async () => {
    const wdb = freshDb();
    const first = await auto(wdb, 2_000n, { quoteId: "q1" });
    let second: AutoPaymentOutcome = { kind: "known" };
    const opened = await readWrites(async () => {
      second = await auto(wdb, 3_000n, { quoteId: "q2", remembered: memoryAfter(first) });
    });
    expect(opened).toBe(1);
    expect(second).toMatchObject({ kind: "signed", payments: 2 });
    expect(await paymentCount(wdb)).toBe(2);
    expect((await readAllSums(wdb)).get("global:USD:day:2026-11-30")).toBe(5_000n);
    expect(await recount(wdb)).toEqual(await readAllSums(wdb));
    expect(await readAllSums(wdb)).toEqual(memoryAfter(second).sums);
  });

  it("writes nothing from an outdated memory (sums or count) and records the payment the usual way", async () => {
    const wdb = freshDb();
    const first = await auto(wdb, 2_000n, { quoteId: "q1" });
    const memory = memoryAfter(first);
    const wrongSums = new Map([...memory.sums].map(([key, sum]) => [key, sum - 1n]));
    for (const remembered of [
      { sums: wrongSums, payments: memory.payments },
      { sums: memory.sums, payments: memory.payments + 5 },
    ]) {
      const opened = await readWrites(() => auto(wdb, 1_000n, { remembered }));
      expect(opened).toBe(2);
    }
    expect(await paymentCount(wdb)).toBe(3);
    expect((await readAllSums(wdb)).get("global:USD:day:2026-11-30")).toBe(4_000n);
    expect(await recount(wdb)).toEqual(await readAllSums(wdb));
  });

  it("never lets a remembered sum get past a cap the stored sums are at", async () => {
    const wdb = freshDb();
    const first = await auto(wdb, 6_000n, { dayCap: 10_000n });
    const spentNothing = new Map([...memoryAfter(first).sums].map(([key]) => [key, 0n]));
    const outcome = await auto(wdb, 6_000n, {
      dayCap: 10_000n,
      remembered: { sums: spentNothing, payments: 1 },
    });
    expect(outcome).toMatchObject({ kind: "refused", error: { code: "budget-exhausted" } });
    expect([...(await readAllSums(wdb)).values()].every((sum) => sum === 6_000n)).toBe(true);
  });

  it("writes nothing for a Quote or request the ledger knows, whatever the memory says", async () => {
    const wdb = freshDb();
    const first = await auto(wdb, 1_000n, { quoteId: "q1", requestKey: "r1" });
    const remembered = memoryAfter(first);
    expect(await auto(wdb, 1_000n, { quoteId: "q1", requestKey: "r2", remembered })).toEqual({
      kind: "known",
    });
    expect(await auto(wdb, 1_000n, { requestKey: "r1", remembered })).toEqual({ kind: "known" });
    expect(await paymentCount(wdb)).toBe(1);
    expect(await readAllSums(wdb)).toEqual(remembered.sums);
  });

  it("finds a Quote the ledger holds among its reads: no request fails once it may have committed", async () => {
    const wdb = freshDb();
    const first = await auto(wdb, 1_000n, { quoteId: "q1", requestKey: "r1" });
    const failed: string[] = [];
    // Firefox commits the other writes when a request fails after commit(): none may fail there.
    // (Requests an abort cancels report AbortError: the abort, before commit(), is what is wanted.)
    wdb.backendDB().addEventListener("error", (event) => {
      const name = (event.target as IDBRequest).error?.name ?? "unknown";
      if (name !== "AbortError") failed.push(name);
    });
    const replay = auto(wdb, 1_000n, {
      quoteId: "q1",
      requestKey: "r2",
      remembered: memoryAfter(first),
    });
    expect(await replay).toEqual({ kind: "known" });
    expect(failed).toEqual([]);
  });

  it("signs once its requests are on their way, and keeps the transaction open until the signatures arrive", async () => {
    const wdb = freshDb();
    const remembered = memoryAfter(await auto(wdb, 1_000n, { quoteId: "q1" }));
    let openedWhenSigning: number | undefined;
    const before = transactionCount.readwrite;
    const outcome = await auto(wdb, 2_000n, {
      quoteId: "q2",
      remembered,
      // Signing takes tasks of its own (WebCrypto): here a timer, long after the reads are answered.
      sign: () => {
        openedWhenSigning = transactionCount.readwrite - before;
        return new Promise((resolve) =>
          setTimeout(() => resolve({ confirmation: "late-conf", proof: "late-proof" }), 30),
        );
      },
    });
    expect(openedWhenSigning).toBe(1);
    expect(transactionCount.readwrite - before).toBe(1);
    if (outcome.kind !== "signed") return expect.unreachable(outcome.kind);
    expect(await wdb.payments.get(outcome.payment.id)).toMatchObject({
      state: "signed",
      confirmation: "late-conf",
      proof: "late-proof",
    });
    expect(await paymentCount(wdb)).toBe(2);
    expect(await recount(wdb)).toEqual(await readAllSums(wdb));
  });

  it("writes nothing when signing fails, and says why", async () => {
    const wdb = freshDb();
    const remembered = memoryAfter(await auto(wdb, 1_000n, { quoteId: "q1" }));
    const failure = new Error("the signer is gone");
    await expect(
      auto(wdb, 2_000n, {
        quoteId: "q2",
        remembered,
        sign: () => new Promise((_resolve, reject) => setTimeout(() => reject(failure), 10)),
      }),
    ).rejects.toBe(failure);
    expect(await paymentCount(wdb)).toBe(1);
    expect(await wdb.payments.count()).toBe(1);
    expect(await readAllSums(wdb)).toEqual(remembered.sums);
  });

  it("lets the stores go when signing outlasts its patience, and records the payment the usual way, once", async () => {
    const wdb = freshDb();
    const remembered = memoryAfter(await auto(wdb, 1_000n, { quoteId: "q1" }));
    let signed = 0;
    const opened = await readWrites(() =>
      auto(wdb, 2_000n, {
        quoteId: "q2",
        remembered,
        sign: () => {
          signed += 1;
          return new Promise((resolve) =>
            setTimeout(() => resolve({ confirmation: "slow-conf", proof: "slow-proof" }), 2_100),
          );
        },
      }),
    );
    expect(opened).toBe(2);
    expect(signed).toBe(1);
    expect(await paymentCount(wdb)).toBe(2);
    expect(await wdb.payments.filter((p) => p.proof === "slow-proof").count()).toBe(1);
    expect(await recount(wdb)).toEqual(await readAllSums(wdb));
  });

  it("signs once when the memory was outdated and the payment is recorded the usual way", async () => {
    const wdb = freshDb();
    const memory = memoryAfter(await auto(wdb, 1_000n, { quoteId: "q1" }));
    let signed = 0;
    const sign = async () => {
      signed += 1;
      return { confirmation: "conf-jws", proof: "proof-jws" };
    };
    const outcome = await auto(wdb, 1_000n, {
      quoteId: "q2",
      remembered: { sums: memory.sums, payments: memory.payments + 5 },
      sign,
    });
    expect(outcome).toMatchObject({ kind: "signed", payments: 2 });
    expect(signed).toBe(1);
  });

  it("counts every one of concurrent payments that share one memory exactly once", async () => {
    const wdb = freshDb();
    const remembered = memoryAfter(await auto(wdb, 1_000n, { quoteId: "q0" }));
    const outcomes = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => auto(wdb, 1_000n, { quoteId: `q${i}`, remembered })),
    );
    expect(outcomes.every((outcome) => outcome.kind === "signed")).toBe(true);
    expect(await paymentCount(wdb)).toBe(6);
    expect((await readAllSums(wdb)).get("global:USD:day:2026-11-30")).toBe(6_000n);
    expect(await recount(wdb)).toEqual(await readAllSums(wdb));
  });
});

describe("a clock set back behind the ledger", () => {
  // The clock runs fast past midnight, then NTP steps it back into November 30.
  const BEFORE = Date.parse("2026-11-30T23:59:50Z");
  const AHEAD = Date.parse("2026-12-01T00:00:05Z");
  const BACK = Date.parse("2026-11-30T23:59:55Z");
  const capsOnly: PolicySettings = {
    ...settings({ amount: 0n, period: "day" }, { day: 1_000_000n, month: 1_000_000n }),
    origins: {},
  };
  const pay = async (wdb: WalletDb, amount: bigint, at: number) => {
    const p = await quoted(wdb, amount, undefined, AGENT, at);
    await advancePayment(wdb, p.id, { state: "approved", approvedBy: "person" }, at);
    return chargeAndSign(wdb, {
      paymentId: p.id,
      settings: capsOnly,
      sign: async () => "p",
      now: at,
    });
  };
  const runningAsRecounted = async (wdb: WalletDb) => {
    const recounted = await recount(wdb);
    for (const [key, sum] of await readAllSums(wdb))
      expect(sum, key).toBe(recounted.get(key) ?? 0n);
  };

  it("never reopens a period: the day and month caps count the newest period seen", async () => {
    const wdb = freshDb();
    await pay(wdb, 1_000_000n, BEFORE);
    await pay(wdb, 10_000n, AHEAD);
    await expect(pay(wdb, 1_000_000n, BACK)).rejects.toMatchObject({ code: "budget-exhausted" });
    // What still fits is counted in December, and December reads it once the clock is there again.
    const behind = await pay(wdb, 5_000n, BACK);
    const sums = await readAllSums(wdb);
    expect(sums.get("global:USD:day:2026-12-01")).toBe(15_000n);
    expect(sums.get("global:USD:month:2026-12")).toBe(15_000n);
    expect(sums.has("global:USD:day:2026-11-30")).toBe(false);
    await expect(pay(wdb, 990_000n, AHEAD + 1)).rejects.toMatchObject({ code: "budget-exhausted" });
    await runningAsRecounted(wdb);
    // Its charge goes back to the December slots it was counted in.
    await releaseUncollectable(wdb, behind.id, AHEAD + 2);
    expect((await readAllSums(wdb)).get("global:USD:day:2026-12-01")).toBe(10_000n);
    await runningAsRecounted(wdb);
  });

  it("keeps a day's spend history in the day its cap counted the charge in, on both paths, and gives it back there", async () => {
    const wdb = freshDb();
    await pay(wdb, 1_000n, BEFORE);
    await pay(wdb, 10_000n, AHEAD);
    const behind = await pay(wdb, 5_000n, BACK);
    expect(await auto(wdb, 2_000n, { now: BACK })).toMatchObject({ kind: "signed" });
    const sums = await readAllSums(wdb);
    expect(sums.get("global:USD:day:2026-12-01")).toBe(17_000n);
    expect(sums.get("daily:USD:2026-12-01:day:2026-12-01")).toBe(17_000n);
    expect(sums.get("daily:USD:2026-11-30:day:2026-11-30")).toBe(1_000n);
    // What the history shows for December 1 is what its day cap enforced.
    const [enforced] = await spendSummaries(wdb, capsOnly, AHEAD + 1);
    expect((await spendPerDay(wdb, capsOnly, AHEAD + 1, 2)).at(-1)).toEqual({
      day: "2026-12-01",
      currency: "USD",
      amount: enforced?.today,
    });
    await runningAsRecounted(wdb);
    await releaseUncollectable(wdb, behind.id, AHEAD + 2);
    expect((await readAllSums(wdb)).get("daily:USD:2026-12-01:day:2026-12-01")).toBe(12_000n);
    await runningAsRecounted(wdb);
  });

  // Review rev-today: a charge stored before withHistoryDay (history in the clock's day) is
  // given back, after the upgrade, out of the later day's history instead.
  it("gives a charge made with the clock set back before the upgrade back to the history day it was added to", async () => {
    const wdb = freshDb();
    await pay(wdb, 1_000n, BEFORE);
    await pay(wdb, 10_000n, AHEAD);
    const behind = await pay(wdb, 5_000n, BACK);
    // As the previous version stored it: the same charge (laterPeriods included, no historyDay), its history in November 30.
    if (behind.charge === undefined) return expect.unreachable("not charged");
    const { historyDay: _notYetRecorded, ...legacy } = behind.charge;
    await wdb.payments.put({ ...behind, charge: legacy });
    await putSums(wdb, [
      [dailySlot("USD", BACK), 6_000n],
      [dailySlot("USD", AHEAD), 10_000n],
    ]);
    await releaseUncollectable(wdb, behind.id, AHEAD + 2);
    const sums = await readAllSums(wdb);
    expect(sums.get(dailySlot("USD", BACK).key)).toBe(1_000n);
    expect(sums.get(dailySlot("USD", AHEAD).key)).toBe(10_000n);
  });

  it("records on the charge, on every path, the later history day it was counted in, and gives it back there", async () => {
    const wdb = freshDb();
    const before = await pay(wdb, 1_000n, BEFORE);
    await pay(wdb, 10_000n, AHEAD);
    const charged = [await pay(wdb, 5_000n, BACK)];
    // The automatic path in two steps, then from a memory of the sums read at the set-back clock.
    for (const fromMemory of [false, true]) {
      const sums = await readSums(wdb, sumSlotsToCharge(AGENT, "USD", BACK));
      const remembered = fromMemory ? { sums, payments: charged.length + 2 } : undefined;
      const outcome = await auto(wdb, 2_000n, { now: BACK, remembered });
      if (outcome.kind !== "signed") return expect.unreachable(outcome.kind);
      charged.push(outcome.payment);
    }
    // Only a history moved from the clock's day is named.
    expect(before.charge?.historyDay).toBeUndefined();
    for (const payment of charged) {
      expect((await wdb.payments.get(payment.id))?.charge?.historyDay).toBe("2026-12-01");
    }
    expect((await readAllSums(wdb)).get(dailySlot("USD", AHEAD).key)).toBe(19_000n);
    await runningAsRecounted(wdb);
    for (const payment of charged) await releaseUncollectable(wdb, payment.id, AHEAD + 2);
    const sums = await readAllSums(wdb);
    expect(sums.get(dailySlot("USD", AHEAD).key)).toBe(10_000n);
    expect(sums.get(dailySlot("USD", BACK).key)).toBe(1_000n);
  });

  it("never reopens a period on the automatic path, remembered or not", async () => {
    const wdb = freshDb();
    expect(await auto(wdb, 600_000n, { now: BEFORE })).toMatchObject({ kind: "signed" });
    expect(await auto(wdb, 10_000n, { now: AHEAD })).toMatchObject({ kind: "signed" });
    // Over the site's day budget where the ledger's newest day is: the person would be asked.
    expect(await auto(wdb, 1_000_000n, { now: BACK })).toEqual({ kind: "over-site-budget" });
    // Remembered as the sums read at the set-back clock: written as remembered, it would reopen November 30.
    const sums = await readSums(wdb, sumSlotsToCharge(AGENT, "USD", BACK));
    const outcome = await auto(wdb, 500_000n, { now: BACK, remembered: { sums, payments: 2 } });
    expect(outcome).toMatchObject({ kind: "signed" });
    const running = await readAllSums(wdb);
    expect(running.get(`origin:${AGENT}:USD:day:2026-12-01`)).toBe(510_000n);
    expect(running.has(`origin:${AGENT}:USD:day:2026-11-30`)).toBe(false);
    expect(await auto(wdb, 500_000n, { now: AHEAD + 1 })).toEqual({ kind: "over-site-budget" });
    await runningAsRecounted(wdb);
  });
});

describe("the settlement tracker's schedule", () => {
  it("is due at once when a payment is signed or a receipt moves it, and left once nothing is open", async () => {
    const wdb = freshDb();
    const auto1 = await auto(wdb, 1_000n, { quoteId: "q1" });
    const auto2 = await auto(wdb, 1_000n, { quoteId: "q2" });
    if (auto1.kind !== "signed" || auto2.kind !== "signed") return expect.unreachable("unsigned");
    expect(auto1.payment.checkAt).toBe(NOW);
    expect((await wdb.payments.get(auto1.payment.id))?.checkAt).toBe(NOW);

    await scheduleSettlementChecks(wdb, [{ id: auto1.payment.id, at: NOW + 60_000, seen: NOW }]);
    expect((await wdb.payments.get(auto1.payment.id))?.checkAt).toBe(NOW + 60_000);
    const settled = await advancePayment(
      wdb,
      auto1.payment.id,
      { state: "settled", receipt: "r" },
      NOW + 5,
    );
    expect(settled.checkAt).toBe(NOW + 5);
    // The tracker read it before the receipt came: its later time does not push the receipt's back.
    await scheduleSettlementChecks(wdb, [
      { id: auto1.payment.id, at: NOW + 60_000, seen: NOW + 60_000 },
    ]);
    expect((await wdb.payments.get(auto1.payment.id))?.checkAt).toBe(NOW + 5);

    const confirmed = await recordSettlement(wdb, auto1.payment.id, {
      status: "confirmed",
      checkedAt: NOW + 6,
    });
    expect(confirmed.checkAt).toBeUndefined();
    const unconfirmed = await recordSettlement(wdb, auto2.payment.id, {
      status: "unconfirmed",
      checkedAt: NOW + 6,
    });
    expect(unconfirmed.checkAt).toBe(NOW);
    expect((await releaseUncollectable(wdb, auto2.payment.id, NOW + 7))?.checkAt).toBeUndefined();
    expect(await wdb.payments.where("checkAt").aboveOrEqual(0).count()).toBe(0);
  });

  it("is due now for every payment looked at later when the person asks to check, not for one held for unlock", async () => {
    const wdb = freshDb();
    const later = await auto(wdb, 1_000n, { quoteId: "q1" });
    const held = await auto(wdb, 1_000n, { quoteId: "q2" });
    if (later.kind !== "signed" || held.kind !== "signed") return expect.unreachable("unsigned");
    await scheduleSettlementChecks(wdb, [{ id: later.payment.id, at: NOW + 60_000, seen: NOW }]);
    await wdb.payments.update(held.payment.id, { checkAt: AWAITS_UNLOCK });
    await settlementChecksDueNow(wdb, NOW + 1, 10);
    expect((await wdb.payments.get(later.payment.id))?.checkAt).toBe(NOW + 1);
    expect((await wdb.payments.get(held.payment.id))?.checkAt).toBe(AWAITS_UNLOCK);
  });

  it("makes due no more than a pass takes when the person asks to check, the soonest first", async () => {
    const wdb = freshDb();
    const ids: string[] = [];
    for (const quoteId of ["q1", "q2", "q3"]) {
      const outcome = await auto(wdb, 1_000n, { quoteId });
      if (outcome.kind !== "signed") return expect.unreachable(outcome.kind);
      ids.push(outcome.payment.id);
    }
    await scheduleSettlementChecks(
      wdb,
      ids.map((id, i) => ({ id, at: NOW + 3_000 - i * 1_000, seen: NOW })),
    );
    await settlementChecksDueNow(wdb, NOW, 2);
    const checkAt = await Promise.all(ids.map(async (id) => (await wdb.payments.get(id))?.checkAt));
    expect(checkAt).toEqual([NOW + 3_000, NOW, NOW]);
  });

  it("makes due only the payments on the networks named, when their RPC endpoint changed", async () => {
    const wdb = freshDb();
    const ids: string[] = [];
    for (const quoteId of ["q1", "q2"]) {
      const outcome = await auto(wdb, 1_000n, { quoteId });
      if (outcome.kind !== "signed") return expect.unreachable(outcome.kind);
      ids.push(outcome.payment.id);
    }
    const [onBase = "", onSepolia = ""] = ids;
    await wdb.payments.update(onSepolia, { network: "eip155:84532" });
    await scheduleSettlementChecks(
      wdb,
      ids.map((id) => ({ id, at: NOW + 3_600_000, seen: NOW })),
    );
    await settlementChecksDueNow(wdb, NOW, 10, new Set(["eip155:84532"]));
    expect((await wdb.payments.get(onSepolia))?.checkAt).toBe(NOW);
    expect((await wdb.payments.get(onBase))?.checkAt).toBe(NOW + 3_600_000);
  });

  it("is due at once when a payment asked for is signed, and never for one that is only quoted", async () => {
    const wdb = freshDb();
    const quoted = await recordQuote(wdb, {
      origin: AGENT,
      receiver: "https://api.example",
      offer: offer(1_000n, "q1"),
      option: option(1_000n),
    });
    expect(quoted.checkAt).toBeUndefined();
    await advancePayment(wdb, quoted.id, { state: "approved" }, NOW);
    const signed = await chargeAndSign(wdb, {
      paymentId: quoted.id,
      settings: settings({ amount: 1_000_000n, period: "day" }),
      sign: async () => "proof-jws",
      now: NOW + 1,
    });
    expect(signed.checkAt).toBe(NOW + 1);
  });
});

describe("releaseUncollectable", () => {
  it("expires a signed payment and takes its charge out of every sum, once however often asked", async () => {
    const wdb = freshDb();
    const kept = await auto(wdb, 2_000n, { quoteId: "q1" });
    const released = await auto(wdb, 5_000n, { quoteId: "q2" });
    if (kept.kind !== "signed" || released.kind !== "signed") return expect.unreachable("unsigned");
    const before = await readAllSums(wdb);
    expect([...before.values()].every((sum) => sum === 7_000n)).toBe(true);

    const expired = await releaseUncollectable(wdb, released.payment.id, NOW + 1);
    expect(expired).toMatchObject({
      state: "expired",
      reason: UNCOLLECTABLE_REASON,
      releasedCharge: { micro: "5000", releasedAt: NOW + 1 },
    });
    expect(expired?.charge).toBeUndefined();
    const after = await readAllSums(wdb);
    expect([...after.values()].every((sum) => sum === 2_000n)).toBe(true);
    expect(await recount(wdb)).toEqual(after);

    expect(await releaseUncollectable(wdb, released.payment.id, NOW + 2)).toBeUndefined();
    expect(await readAllSums(wdb)).toEqual(after);
  });

  it("gives back yesterday's charge to yesterday's spend and the month, never to today's day", async () => {
    const wdb = freshDb();
    const yesterday = NOW - 86_400_000;
    const old = await auto(wdb, 4_000n, { quoteId: "q1", now: yesterday });
    const today = await auto(wdb, 1_000n, { quoteId: "q2" });
    if (old.kind !== "signed" || today.kind !== "signed") return expect.unreachable("unsigned");
    await releaseUncollectable(wdb, old.payment.id, NOW + 1);
    const sums = await readAllSums(wdb);
    expect(sums.get("global:USD:day:2026-11-30")).toBe(1_000n);
    expect(sums.get("global:USD:month:2026-11")).toBe(1_000n);
    expect(sums.get(`origin:${AGENT}:USD:week:2026-11-30`)).toBe(1_000n);
    expect(sums.get("daily:USD:2026-11-29:day:2026-11-29")).toBe(0n);
    expect(sums.get("daily:USD:2026-11-30:day:2026-11-30")).toBe(1_000n);
  });

  it("releases a charge recorded before the sums moved into rows (version 4) from the upgraded rows", async () => {
    const name = `ledger-v4-${crypto.randomUUID()}`;
    const v4 = openV4Database(name);
    // Version 4 kept each sum in a row of its own, under the very key that names it now.
    const sumKeys = sumKeysToCharge(AGENT, "USD", NOW).filter((key) => !key.startsWith("daily:"));
    await v4
      .table("budgetSums")
      .bulkPut(sumKeys.map((key) => ({ key, amount: "6000", updatedAt: NOW })));
    await v4.table("payments").add({
      id: "v4-payment",
      createdAt: NOW,
      updatedAt: NOW,
      origin: AGENT,
      receiver: "r",
      state: "signed",
      charge: { currency: "USD", micro: "5000", sumKeys, chargedAt: NOW },
    });
    v4.close();
    db = openWalletDb(name);
    expect(await releaseUncollectable(db, "v4-payment", NOW + 1)).toMatchObject({
      state: "expired",
    });
    const sums = await readAllSums(db);
    for (const key of sumKeys) expect(sums.get(key), key).toBe(1_000n);
    expect(sums.get("daily:USD:2026-11-30:day:2026-11-30")).toBe(1_000n);
  });

  // Black-box review: a refused payment collected after all read "paid" beside "It stays charged
  // until its authorization expires unused".
  it("says a refused payment the chain shows collected was collected all the same", async () => {
    const wdb = freshDb();
    const signed = await auto(wdb, 3_000n, { quoteId: "q1" });
    if (signed.kind !== "signed") return expect.unreachable(signed.kind);
    const refusal = "The receiver refused the payment: settlement failed.";
    await advancePayment(
      wdb,
      signed.payment.id,
      { state: "failed", reason: `${refusal} ${STAYS_CHARGED}` },
      NOW,
    );
    const collected = await recordSettlement(wdb, signed.payment.id, {
      status: "used",
      checkedAt: NOW + 1,
    });
    expect(collected).toMatchObject({
      state: "settled",
      reason: `${refusal} ${COLLECTED_AFTER_ALL}`,
    });
  });

  // Black-box review (finality, scenario D): a settlement in a block a reorganization then
  // undid stayed "settled", its charge counted for ever, though the chain never moved the money.
  it("signs a settled payment again when its settlement's block is undone, still charged until it expires unused", async () => {
    const wdb = freshDb();
    const signed = await auto(wdb, 3_000n, { quoteId: "q1" });
    if (signed.kind !== "signed") return expect.unreachable(signed.kind);
    const transaction = `0x${"ab".repeat(32)}` as const;
    const settlement = {
      status: "confirmed",
      transaction,
      blockNumber: "7",
      checkedAt: NOW,
    } as const;
    // Not final yet: the tracker keeps it due, to look again.
    const settled = await recordSettlement(wdb, signed.payment.id, settlement, { final: false });
    expect(settled).toMatchObject({ state: "settled", checkAt: NOW });

    const undone = await undoSettlement(wdb, signed.payment.id, NOW + 1);
    expect(undone).toMatchObject({
      state: "signed",
      reason: SETTLEMENT_UNDONE,
      charge: { micro: "3000" },
      checkAt: NOW,
    });
    expect(undone?.settlement).toBeUndefined();
    expect([...(await readAllSums(wdb)).values()].every((sum) => sum === 3_000n)).toBe(true);
    // Once: a signed payment has nothing to undo.
    expect(await undoSettlement(wdb, signed.payment.id, NOW + 2)).toBeUndefined();
    // Given back only by the chain's word that it expired unused, as any signed payment.
    expect(await releaseUncollectable(wdb, signed.payment.id, NOW + 3)).toMatchObject({
      state: "expired",
    });
    expect([...(await readAllSums(wdb)).values()].every((sum) => sum === 0n)).toBe(true);
  });

  it("says a refused payment collected, undone and collected again was collected all the same", async () => {
    const wdb = freshDb();
    const signed = await auto(wdb, 3_000n, { quoteId: "q1" });
    if (signed.kind !== "signed") return expect.unreachable(signed.kind);
    const refusal = "The receiver refused the payment: settlement failed.";
    const { id } = signed.payment;
    await advancePayment(wdb, id, { state: "failed", reason: `${refusal} ${STAYS_CHARGED}` }, NOW);
    const confirmed = { status: "confirmed", blockNumber: "7", checkedAt: NOW + 1 } as const;
    await recordSettlement(wdb, id, confirmed, { final: false });
    expect(await undoSettlement(wdb, id, NOW + 2)).toMatchObject({
      state: "signed",
      reason: `${refusal} ${COLLECTED_AFTER_ALL} ${SETTLEMENT_UNDONE}`,
    });
    const again = await recordSettlement(wdb, id, { ...confirmed, blockNumber: "8" });
    expect(again).toMatchObject({ state: "settled", reason: `${refusal} ${COLLECTED_AFTER_ALL}` });
    // Final: not looked at again.
    expect(again.checkAt).toBeUndefined();
  });

  it("undoes only a settlement the chain confirmed, never a signed or an expired payment", async () => {
    const wdb = freshDb();
    const signed = await auto(wdb, 3_000n, { quoteId: "q1" });
    const used = await auto(wdb, 3_000n, { quoteId: "q2" });
    if (signed.kind !== "signed" || used.kind !== "signed") return expect.unreachable("unsigned");
    expect(await undoSettlement(wdb, signed.payment.id, NOW)).toBeUndefined();
    await recordSettlement(wdb, used.payment.id, { status: "used", checkedAt: NOW });
    expect(await undoSettlement(wdb, used.payment.id, NOW)).toBeUndefined();
    await releaseUncollectable(wdb, signed.payment.id, NOW);
    expect(await undoSettlement(wdb, signed.payment.id, NOW)).toBeUndefined();
    expect((await wdb.payments.get(signed.payment.id))?.state).toBe("expired");
    expect((await wdb.payments.get(used.payment.id))?.state).toBe("settled");
  });

  it("releases a payment the receiver refused after signing, and nothing that was never charged", async () => {
    const wdb = freshDb();
    const signed = await auto(wdb, 3_000n, { quoteId: "q1" });
    if (signed.kind !== "signed") return expect.unreachable(signed.kind);
    await advancePayment(
      wdb,
      signed.payment.id,
      { state: "failed", reason: "insufficient_funds" },
      NOW,
    );
    expect(await releaseUncollectable(wdb, signed.payment.id, NOW)).toMatchObject({
      state: "expired",
    });
    expect([...(await readAllSums(wdb)).values()].every((sum) => sum === 0n)).toBe(true);

    const refused = await auto(wdb, 2_000_000n, { quoteId: "q2", dayCap: 1_000n });
    if (refused.kind !== "refused") return expect.unreachable(refused.kind);
    const [entry] = await wdb.payments.filter((p) => p.state === "refused").toArray();
    expect(await releaseUncollectable(wdb, entry?.id ?? "", NOW)).toBeUndefined();
    expect((await wdb.payments.get(entry?.id ?? ""))?.state).toBe("refused");
  });
});

describe("running sums vs recount", () => {
  it("stay equal over 1,000 random operations across day, week and month boundaries", async () => {
    const wdb = freshDb();
    const random = seeded(20261130);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const origins = [AGENT, "https://b.example", "https://c.example"];
    const s: PolicySettings = {
      ...settings({ amount: 3_000_000n, period: "week" }, { day: 5_000_000n, month: 60_000_000n }),
    };
    s.origins["https://b.example"] = {
      currency: "USD",
      amount: 1_500_000n,
      period: "day",
      autoApproveUpTo: 0n,
      perCallMax: 10n ** 9n,
    };
    s.origins["https://c.example"] = {
      currency: "USD",
      amount: 20_000_000n,
      period: "month",
      autoApproveUpTo: 0n,
      perCallMax: 10n ** 9n,
    };
    let now = Date.parse("2026-01-26T00:00:00Z");
    const signedIds: string[] = [];
    const counts = { signed: 0, refused: 0, declined: 0, settled: 0, rejectedMoves: 0 };

    for (let op = 0; op < 1000; op++) {
      now += Math.floor(random() * 4 * 3_600_000);
      const roll = random();
      if (roll < 0.6) {
        const p = await approved(
          wdb,
          BigInt(1 + Math.floor(random() * 400_000)),
          `q${op}`,
          pick(origins),
          now,
        );
        try {
          await chargeAndSign(wdb, {
            paymentId: p.id,
            settings: s,
            sign: async () => `proof${op}`,
            now,
          });
          signedIds.push(p.id);
          counts.signed += 1;
        } catch (error) {
          expect(error).toMatchObject({ name: "WalletError", code: "budget-exhausted" });
          counts.refused += 1;
        }
      } else if (roll < 0.7) {
        const p = await quoted(wdb, 1n, undefined, pick(origins), now);
        await advancePayment(wdb, p.id, { state: "declined", reason: "no" }, now);
        counts.declined += 1;
      } else if (signedIds.length > 0) {
        const id = pick(signedIds);
        const update = pick([
          { state: "settled", receipt: "r" },
          { state: "failed", reason: "settlement reverted" },
          { state: "expired", reason: "validBefore passed" },
        ] as const);
        try {
          await advancePayment(wdb, id, update, now);
          counts.settled += 1;
        } catch (error) {
          expect(error).toMatchObject({ name: "WalletError", code: "invalid-transition" });
          counts.rejectedMoves += 1;
        }
      }
    }
    // The run must have exercised every path, or it proves little.
    expect(counts.signed).toBeGreaterThan(100);
    expect(counts.refused).toBeGreaterThan(20);
    expect(counts.settled).toBeGreaterThan(20);
    expect(counts.rejectedMoves).toBeGreaterThan(5);
    const running = await readAllSums(wdb);
    const recounted = await recount(wdb);
    expect(running.size).toBeGreaterThan(50);
    // The rows keep each period's latest slot and every day of the spend history, each as recounted...
    for (const [key, sum] of running) expect(sum, key).toBe(recounted.get(key) ?? 0n);
    for (const [key, sum] of recounted) {
      if (key.startsWith("daily:")) expect(running.get(key) ?? 0n, key).toBe(sum);
    }
    // ...and every sum a cap reads now.
    for (const origin of origins) {
      for (const { key } of sumSlotsToCharge(origin, "USD", now)) {
        expect(running.get(key) ?? 0n, key).toBe(recounted.get(key) ?? 0n);
      }
    }
  });
});

describe("recordRefusal", () => {
  it("records a refused payment without the quote id the paid one keeps, and counts it", async () => {
    const db = openWalletDb(`ledger-refusal-${crypto.randomUUID()}`);
    try {
      const paid = await approved(db, 1n, "q-paid");
      await chargeAndSign(db, {
        paymentId: paid.id,
        settings: settings({ amount: 10n ** 9n, period: "day" }),
        sign: async () => "proof",
        now: NOW,
      });
      const refused = await recordRefusal(
        db,
        {
          origin: AGENT,
          receiver: "https://api.example",
          offer: offer(1n, "q-paid"),
          option: option(1n),
        },
        "Replayed quote: q-paid",
        NOW,
      );
      expect(refused).toMatchObject({ state: "refused", reason: "Replayed quote: q-paid" });
      expect(refused.quoteId).toBeUndefined();
      expect(await db.payments.where("quoteId").equals("https://api.example q-paid").count()).toBe(
        1,
      );
      expect(await paymentCount(db)).toBe(2);
    } finally {
      await db.delete();
    }
  });
});

describe("paymentCount and deleteHistory", () => {
  it("count payments as they are recorded, and deleting history keeps the budget sums", async () => {
    const db = openWalletDb(`ledger-count-${crypto.randomUUID()}`);
    try {
      for (let i = 0; i < 3; i++) {
        const payment = await quoted(db, 1n, `count-${i}`);
        await advancePayment(db, payment.id, { state: "declined", reason: "no" }, NOW);
      }
      expect(await paymentCount(db)).toBe(3);
      const [today] = sumSlotsToCharge(AGENT, "USD", Date.parse("2026-11-30T08:00:00Z"));
      if (!today) throw new Error("no slot");
      await putSums(db, [[today, 5n]]);
      expect(await deleteHistory(db, NOW)).toEqual({ deleted: 3, kept: 0 });
      expect(await db.payments.count()).toBe(0);
      expect(await paymentCount(db)).toBe(0);
      expect((await readAllSums(db)).get(today.key)).toBe(5n);
    } finally {
      await db.delete();
    }
  });

  it("keeps the payments still in flight (charged and awaiting the chain, or held for unlock), and their count", async () => {
    const wdb = freshDb();
    const signed = await auto(wdb, 1_000n, { quoteId: "q1" });
    const held = await auto(wdb, 1_000n, { quoteId: "q2" });
    const settled = await auto(wdb, 1_000n, { quoteId: "q3" });
    if (signed.kind !== "signed" || held.kind !== "signed" || settled.kind !== "signed") {
      return expect.unreachable("unsigned");
    }
    await wdb.payments.update(held.payment.id, { checkAt: AWAITS_UNLOCK });
    await recordSettlement(wdb, settled.payment.id, { status: "used", checkedAt: NOW });
    const declined = await quoted(wdb, 1n);
    await advancePayment(wdb, declined.id, { state: "declined", reason: "no" }, NOW);
    expect(await deleteHistory(wdb, NOW)).toEqual({ deleted: 2, kept: 2 });
    expect((await wdb.payments.toCollection().primaryKeys()).sort()).toEqual(
      [signed.payment.id, held.payment.id].sort(),
    );
    expect(await paymentCount(wdb)).toBe(2);
  });

  /** `id`'s Quote made to expire at `expiresAt` (seconds). */
  const expiringAt = async (wdb: WalletDb, id: string, expiresAt: number) => {
    const payment = await wdb.payments.get(id);
    const quote = payment?.offer.quote;
    if (payment === undefined || quote === undefined) throw new Error("no quote");
    await wdb.payments.update(id, { offer: { ...payment.offer, quote: { ...quote, expiresAt } } });
  };

  // A payment being approved holds no quoteId yet (recordQuote strips it): it is kept as one
  // still being decided, not for its Quote.
  it("keeps a payment the person is approving, whose Quote is still valid", async () => {
    const wdb = freshDb();
    const asked = await quoted(wdb, 1_000n, "q-asked");
    await expiringAt(wdb, asked.id, NOW / 1000 + 300);
    await advancePayment(wdb, asked.id, { state: "approved", approvedBy: "person" }, NOW);
    expect(await deleteHistory(wdb, NOW + 1_000)).toEqual({ deleted: 0, kept: 1 });
    const signed = await chargeAndSign(wdb, {
      paymentId: asked.id,
      settings: settings({ amount: 1_000_000n, period: "day" }),
      sign: async () => "p",
      now: NOW + 2_000,
    });
    expect(signed.state).toBe("signed");
  });

  // The clock run ahead (by up to an hour) at deletion, then set back by NTP: the Quote is
  // valid again, and its payment must still be there to refuse it.
  it("still refuses a Quote paid before the history was deleted with the clock run ahead", async () => {
    const wdb = freshDb();
    const paid = await auto(wdb, 1_000n, { quoteId: "q-jump" });
    if (paid.kind !== "signed") return expect.unreachable("unsigned");
    await expiringAt(wdb, paid.payment.id, NOW / 1000 + 300);
    await recordSettlement(wdb, paid.payment.id, { status: "confirmed", checkedAt: NOW });
    await deleteHistory(wdb, NOW + 3_600_000);
    // The clock is stepped back: the Quote is within its lifetime again.
    expect(await auto(wdb, 1_000n, { quoteId: "q-jump", now: NOW + 60_000 })).toEqual({
      kind: "known",
    });
  });

  it("keeps a finished payment until its Quote expires, so the same Quote is still refused", async () => {
    const wdb = freshDb();
    const paid = await auto(wdb, 1_000n, { quoteId: "q-fresh" });
    if (paid.kind !== "signed") return expect.unreachable("unsigned");
    const expiresAt = NOW / 1000 + 300;
    const quote = paid.payment.offer.quote;
    if (quote === undefined) return expect.unreachable("no quote");
    await wdb.payments.update(paid.payment.id, {
      offer: { ...paid.payment.offer, quote: { ...quote, expiresAt } },
    });
    await recordSettlement(wdb, paid.payment.id, { status: "confirmed", checkedAt: NOW });
    expect(await deleteHistory(wdb, NOW + 60_000)).toEqual({ deleted: 0, kept: 1 });
    // The page sends the same Quote again: the ledger knows it, nothing is signed or charged.
    expect(await auto(wdb, 1_000n, { quoteId: "q-fresh" })).toEqual({ kind: "known" });
    // Once no receiver would accept the Quote (past its exp and the clock tolerance, by more
    // than the clock may have run ahead), it goes.
    expect(await deleteHistory(wdb, (expiresAt + 6) * 1000 + 3_600_000)).toEqual({
      deleted: 1,
      kept: 0,
    });
    expect(await paymentCount(wdb)).toBe(0);
  });
});
