import { type Hex, publicActions } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA, type LocalChain, startLocalChain } from "../../demo/chain";
import { settleAuthorization } from "../../demo/receiver/settle";
import { mintTo } from "../../tests/unit-support/chain/mint";
import {
  AGENT,
  CALLER,
  type Harness,
  makeHarness,
  seedPayment,
  TEST_AUTO_BUDGET,
  x402HttpChallenge,
} from "../../tests/unit-support/payments/test-support";
import type { PaymentRecord } from "../db/schema";
import { AWAITS_UNLOCK } from "../db/settlement-due";
import { readAllSums } from "../wallet/budget-sums";
import {
  advancePayment,
  SETTLEMENT_UNDONE,
  settlementChecksDueNow,
  UNCOLLECTABLE_REASON,
} from "../wallet/ledger";
import {
  claimedTransactionOf,
  NodeBackoff,
  PASS_SIZE,
  trackSettlements,
} from "./settlement-tracker";
import { signedAuthorizationOf } from "./signed-transfer";

describe("trackSettlements, against a local chain", () => {
  let chain: LocalChain;
  beforeAll(async () => {
    chain = await startLocalChain({ ...BASE_SEPOLIA, payers: 1 });
  }, 60_000);
  afterAll(() => chain?.stop());

  const everySum = async (h: Harness) => [...(await readAllSums(h.db)).values()];

  /** A harness whose wallet holds tokens on the chain and pays x402 there under a budget. */
  async function paying() {
    const h = await makeHarness({ policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } });
    // Authorizations are valid by the chain's clock, which is the real one.
    h.clock.ms = Date.now();
    await mintTo(chain, h.unlocked.address, 1_000_000n);
    /** How often the tracker said a settlement was undone, over every pass. */
    const seen = { unsettled: 0 };
    const track = ({
      withEndpoint = true,
      laterMs = 0,
      endpoint = chain.rpcUrl,
      fetchFn,
      backoff,
    }: {
      withEndpoint?: boolean;
      laterMs?: number;
      endpoint?: string;
      fetchFn?: typeof fetch;
      backoff?: NodeBackoff;
    } = {}) => {
      let released = 0;
      return trackSettlements({
        db: h.db,
        endpointFor: async () => (withEndpoint ? endpoint : undefined),
        now: () => Date.now() + laterMs,
        ...(fetchFn ? { fetchFn } : {}),
        ...(backoff ? { backoff } : {}),
        released: () => {
          released++;
        },
        unsettled: () => {
          seen.unsettled++;
        },
      }).then((next) => ({ next, released }));
    };
    const pay = async (requestId: string) => {
      const answer = await h.engine.pay({ requestId, challenge: x402HttpChallenge(2) }, CALLER);
      const payment = await h.db.payments.get(answer.paymentId);
      if (!payment) throw new Error("the payment was not recorded");
      return payment;
    };
    /** The facilitator settles the payment's authorization on chain: its transaction. */
    const collect = async (payment: PaymentRecord) => {
      const facilitator = chain.walletClient(chain.accounts.facilitator).extend(publicActions);
      const payload = JSON.parse(atob(payment.proof ?? "")) as {
        payload: Parameters<typeof settleAuthorization>[2];
      };
      const { transaction } = await settleAuthorization(
        facilitator,
        chain.token.address,
        payload.payload,
      );
      return transaction;
    };
    return { h, track, pay, seen, collect };
  }

  it("settles a payment the chain shows collected, with its transaction, though no receipt came", async () => {
    const { h, track, pay, collect } = await paying();
    const payment = await pay("collected");
    const transaction = await collect(payment);
    const { next } = await track();
    // In the head block, not final yet: a reorganization could still drop it, so it is looked at again.
    expect(next).toBeGreaterThan(Date.now());
    expect(await h.db.payments.get(payment.id)).toMatchObject({
      state: "settled",
      settlement: { status: "confirmed", transaction },
      charge: { micro: "10000" },
      checkAt: next,
    });
  });

  // Black-box review (finality, scenario D): a settlement found in the head block was filed for
  // good; one a reorganization moved to another block kept the block that no longer holds it.
  it("looks again at a settlement until its block is final, following it to the block a reorganization moved it to", async () => {
    const { h, track, pay, seen, collect } = await paying();
    const payment = await pay("moved");
    const beforeSettlement = await chain.testClient.snapshot();
    await collect(payment);
    await track();
    // A reorganization drops the block; the transaction comes back one block later.
    await chain.testClient.revert({ id: beforeSettlement });
    await chain.testClient.mine({ blocks: 1 });
    const transaction = await collect(payment);
    const { blockNumber } = await chain.publicClient.getTransactionReceipt({ hash: transaction });
    const again = await track({ laterMs: 3_600_000 });
    expect(again.released).toBe(0);
    expect(await h.db.payments.get(payment.id)).toMatchObject({
      state: "settled",
      settlement: { status: "confirmed", transaction, blockNumber: String(blockNumber) },
    });
    expect(again.next).toBeGreaterThan(Date.now() + 3_600_000);
    // Its block final (two behind the head): settled for good, never looked at again.
    await chain.testClient.mine({ blocks: 2 });
    const final = await track({ laterMs: 2 * 3_600_000 });
    expect(final.next).toBeUndefined();
    expect((await h.db.payments.get(payment.id))?.checkAt).toBeUndefined();
    expect(await h.db.payments.get(payment.id)).toMatchObject({
      state: "settled",
      settlement: { blockNumber: String(blockNumber) },
    });
    expect(seen.unsettled).toBeLessThanOrEqual(1);
  });

  /** A fetch to `chain` that answers a request for the finalized block with `answer`'s result instead. */
  function finalizedAs(answer: (real: Record<string, unknown>) => unknown): typeof fetch {
    return async (input, init) => {
      const request = JSON.parse(String(init?.body)) as {
        id: number;
        method: string;
        params?: unknown[];
      };
      const response = await fetch(input, init);
      if (request.method !== "eth_getBlockByNumber" || request.params?.[0] !== "finalized") {
        return response;
      }
      const real = (await response.json()) as { result: Record<string, unknown> };
      return Response.json({ jsonrpc: "2.0", id: request.id, ...(answer(real.result) as object) });
    };
  }

  // Review rev-today: before today the tracker read "latest" only; a node (or a chain) that
  // has no "finalized" tag now fails every look, so a payment collected on chain with no
  // receipt is never settled, and its node is backed off as if it were down.
  it("settles a payment the chain shows collected, on a node that knows no finalized block", async () => {
    const { h, track, pay, collect } = await paying();
    const payment = await pay("collected-no-finality");
    await collect(payment);
    const noFinality = finalizedAs(() => ({
      error: { code: -32602, message: "invalid block tag: finalized" },
    }));
    await track({ fetchFn: noFinality });
    expect(await h.db.payments.get(payment.id)).toMatchObject({ state: "settled" });
  });

  // Review rev-today: the next look is validBefore minus the finalized block's time, unbounded:
  // a node whose finalized block lags a month (finality stalled, a node still syncing) puts the
  // payment off for a month, though finality may catch up minutes later.
  it("looks again within an hour at an open authorization, however far the finalized block lags", async () => {
    const { h, track, pay } = await paying();
    const payment = await pay("finality-lags");
    const monthBehind = finalizedAs((real) => ({
      result: {
        ...real,
        timestamp: `0x${(BigInt(String(real.timestamp)) - 30n * 86_400n).toString(16)}`,
      },
    }));
    const { next } = await track({ fetchFn: monthBehind });
    expect((await h.db.payments.get(payment.id))?.state).toBe("signed");
    expect(next).toBeLessThanOrEqual(Date.now() + 3_600_000);
  });

  /** A fetch that counts the JSON-RPC requests it passes on. */
  function countingFetch() {
    const counted = { calls: 0 };
    const fetchFn: typeof fetch = (input, init) => {
      counted.calls++;
      return fetch(input, init);
    };
    return { counted, fetchFn };
  }

  it("reads a node's chain and final block once a pass, however many payments it asks about", async () => {
    const { track, pay } = await paying();
    await pay("many-1");
    await pay("many-2");
    await pay("many-3");
    const methods: string[] = [];
    const listening: typeof fetch = (input, init) => {
      methods.push((JSON.parse(String(init?.body)) as { method: string }).method);
      return fetch(input, init);
    };
    await track({ fetchFn: listening });
    const asked = (method: string) => methods.filter((one) => one === method).length;
    expect(asked("eth_call")).toBeGreaterThanOrEqual(3);
    expect([asked("eth_chainId"), asked("eth_getBlockByNumber")]).toEqual([1, 1]);
  });

  // Before any test moves the chain's clock past the authorizations this one signs.
  it("asks the chain about a payment once, then not before the time it was given", async () => {
    const { h, track, pay } = await paying();
    const payment = await pay("looked-at");
    const first = countingFetch();
    const { next } = await track({ fetchFn: first.fetchFn });
    expect(first.counted.calls).toBeGreaterThan(0);
    const looked = await h.db.payments.get(payment.id);
    expect(looked?.checkAt).toBe(next);
    expect(next).toBeGreaterThan(Date.now());
    const again = countingFetch();
    expect(await track({ fetchFn: again.fetchFn })).toMatchObject({ next });
    expect(again.counted.calls).toBe(0);
  });

  // Before any test moves the chain's clock past the authorizations this one signs.
  it("asks again when the chain's clock can have reached validBefore, not every few seconds, when the local clock runs ahead", async () => {
    const { h, track, pay } = await paying();
    const payment = await pay("clock-ahead");
    const transfer = signedAuthorizationOf(payment);
    if (!transfer) return expect.unreachable("no authorization");
    // Past validBefore by the local clock, ten minutes ahead; not by the chain's.
    const aheadMs = Number(transfer.validBefore) * 1000 - Date.now() + 10 * 60_000;
    const before = Date.now() + aheadMs;
    const { next, released } = await track({ laterMs: aheadMs });
    const chainTime = (await chain.publicClient.getBlock()).timestamp;
    expect(released).toBe(0);
    expect((await h.db.payments.get(payment.id))?.state).toBe("signed");
    expect(next).toBeGreaterThanOrEqual(before + Number(transfer.validBefore - chainTime) * 1000);
    expect((await h.db.payments.get(payment.id))?.checkAt).toBe(next);
  });

  it("leaves a payment whose receipt is held for unlock to that check, collected or not", async () => {
    const { h, track, pay, collect } = await paying();
    const payment = await pay("held");
    await collect(payment);
    await h.db.payments.update(payment.id, {
      heldReceipt: { status: 200, receipt: "held" },
      checkAt: AWAITS_UNLOCK,
    });
    await track();
    expect((await h.db.payments.get(payment.id))?.state).toBe("signed");
    // Unlocked: the receipt filed, the payment is due again.
    await h.db.payments.update(payment.id, { heldReceipt: undefined, checkAt: Date.now() });
    await track();
    expect((await h.db.payments.get(payment.id))?.state).toBe("settled");
  });

  it("flags a claimed settlement the chain does not show, keeps the charge, and looks again", async () => {
    const { h, track, pay } = await paying();
    const payment = await pay("claimed");
    const made: Hex = `0x${"cd".repeat(32)}`;
    await h.db.payments.update(payment.id, {
      receipt: JSON.stringify({ success: true, transaction: made, network: "eip155:84532" }),
    });
    expect(
      claimedTransactionOf({ ...payment, receipt: JSON.stringify({ transaction: made }) }),
    ).toBe(made);
    const { next } = await track();
    expect(next).toBeGreaterThan(Date.now());
    expect(await h.db.payments.get(payment.id)).toMatchObject({
      state: "signed",
      settlement: { status: "unconfirmed", transaction: made },
    });
    expect((await everySum(h)).every((sum) => sum === 10_000n)).toBe(true);
  });

  it("releases a refused payment once the chain's clock passes its authorization unused, exactly once", async () => {
    const { h, track, pay } = await paying();
    const payment = await pay("refused");
    await h.db.payments.update(payment.id, { state: "failed", reason: "insufficient_funds" });
    const open = await track();
    expect(open.released).toBe(0);
    expect(open.next).toBeGreaterThan(Date.now());
    expect((await everySum(h)).every((sum) => sum === 10_000n)).toBe(true);

    await chain.testClient.increaseTime({ seconds: 3_600 });
    await chain.testClient.mine({ blocks: 1 });
    // Not due by this clock yet: nothing asked, nothing released.
    expect((await track()).released).toBe(0);
    // Due, but only the latest block is past it: a reorganization could still replace that one.
    expect((await track({ laterMs: 3_600_000 })).released).toBe(0);
    expect((await everySum(h)).every((sum) => sum === 10_000n)).toBe(true);
    // A finalized block past it: the local chain finalizes two blocks behind its head.
    await chain.testClient.mine({ blocks: 2 });
    const passed = await track({ laterMs: 3_700_000 });
    expect(passed).toEqual({ next: undefined, released: 1 });
    expect(await h.db.payments.get(payment.id)).toMatchObject({
      state: "expired",
      reason: UNCOLLECTABLE_REASON,
    });
    expect((await everySum(h)).every((sum) => sum === 0n)).toBe(true);
    expect(await track({ laterMs: 3_700_000 })).toEqual({ next: undefined, released: 0 });
  });

  it("releases nothing on the word of a node of another chain (a mistyped endpoint)", async () => {
    const { h, track, pay } = await paying();
    const payment = await pay("other-chain");
    await h.db.payments.update(payment.id, { state: "failed", reason: "insufficient_funds" });
    await chain.testClient.increaseTime({ seconds: 3_600 });
    // Past it at a finalized block (two behind the head).
    await chain.testClient.mine({ blocks: 3 });
    // The same node, presenting itself as Ethereum mainnet: its answers are not about this payment.
    const mainnet: typeof fetch = async (input, init) => {
      const request = JSON.parse(String(init?.body)) as { id: number; method: string };
      if (request.method !== "eth_chainId") return fetch(input, init);
      return Response.json({ jsonrpc: "2.0", id: request.id, result: "0x1" });
    };
    const before = Date.now();
    const wrong = await track({ laterMs: 3_600_000, fetchFn: mainnet });
    expect(wrong.released).toBe(0);
    expect(await h.db.payments.get(payment.id)).toMatchObject({ state: "failed" });
    expect((await everySum(h)).every((sum) => sum === 10_000n)).toBe(true);
    expect(wrong.next).toBeGreaterThanOrEqual(before + 30_000);
    expect(await track({ laterMs: 3_600_000 * 2 })).toMatchObject({ released: 1 });
  });

  it("leaves a payment alone on a network it has no endpoint for, looks again in an hour, and once a day after a month", async () => {
    const { h, track, pay } = await paying();
    const payment = await pay("no-rpc");
    await chain.testClient.increaseTime({ seconds: 3_600 });
    await chain.testClient.mine({ blocks: 1 });
    const before = Date.now();
    const { next, released } = await track({ withEndpoint: false });
    expect(released).toBe(0);
    expect(next).toBeGreaterThanOrEqual(before + 3_600_000);
    expect((await h.db.payments.get(payment.id))?.state).toBe("signed");
    // Still none a month on: it stays charged, and is looked at once a day (one may be set).
    const monthOn = await track({ withEndpoint: false, laterMs: 31 * 24 * 3_600_000 });
    expect(monthOn.released).toBe(0);
    expect(monthOn.next).toBeGreaterThanOrEqual(before + 32 * 24 * 3_600_000);
    expect(await h.db.payments.get(payment.id)).toMatchObject({ state: "signed" });
    expect((await h.db.payments.get(payment.id))?.checkAt).toBe(monthOn.next);
  });

  it("asks a node that does not answer once a pass, and looks at its payments again later", async () => {
    const { h, track, pay } = await paying();
    const payments = [await pay("dead-1"), await pay("dead-2"), await pay("dead-3")];
    const dead = countingFetch();
    const before = Date.now();
    const { next } = await track({ endpoint: "http://127.0.0.1:9/", fetchFn: dead.fetchFn });
    expect(dead.counted.calls).toBe(1);
    expect(next).toBeGreaterThanOrEqual(before + 30_000);
    for (const { id } of payments) {
      expect(await h.db.payments.get(id)).toMatchObject({ state: "signed" });
      expect((await h.db.payments.get(id))?.checkAt).toBeGreaterThanOrEqual(before + 30_000);
    }
  });

  it("leaves a node that keeps failing alone twice as long after each pass, and forgets once it answers", async () => {
    const { h, track, pay } = await paying();
    const payment = await pay("backoff");
    const backoff = new NodeBackoff();
    const dead = "http://127.0.0.1:9/";
    const waited = async (laterMs: number, endpoint = dead) => {
      const start = Date.now() + laterMs;
      await track({ endpoint, laterMs, backoff });
      return ((await h.db.payments.get(payment.id))?.checkAt ?? 0) - start;
    };
    expect(await waited(0)).toBeGreaterThanOrEqual(30_000);
    expect(await waited(31_000)).toBeGreaterThanOrEqual(60_000);
    expect(await waited(92_000)).toBeGreaterThanOrEqual(120_000);
    // The node answers: the node starts afresh (and the payment is given its own time).
    await waited(213_000, chain.rpcUrl);
    expect(backoff.failed(dead)).toBe(240_000);
    expect(backoff.failed(chain.rpcUrl)).toBe(30_000);
  });

  it("looks at a payment again later when its endpoint could not be read, and goes on with the others", async () => {
    const { h, pay } = await paying();
    const payment = await pay("unreadable-settings");
    const before = Date.now();
    const next = await trackSettlements({
      db: h.db,
      endpointFor: async () => {
        throw new Error("the settings could not be read");
      },
      now: () => Date.now(),
      released: () => undefined,
      unsettled: () => undefined,
    });
    expect(next).toBeGreaterThanOrEqual(before + 30_000);
    expect((await h.db.payments.get(payment.id))?.checkAt).toBeGreaterThanOrEqual(before + 30_000);
  });

  it("looks at no more than a pass's share of due payments, and comes back for the rest a moment later", async () => {
    const { h, track } = await paying();
    // Due, but with nothing to ask (no signed authorization): each pass only takes them off.
    const seeded = await seedPayment(h.db, { createdAt: Date.now(), state: "signed" });
    await h.db.payments.bulkAdd(
      Array.from({ length: PASS_SIZE + 1 }, (_, i) => ({ ...seeded, id: `due-${i}`, checkAt: i })),
    );
    const before = Date.now();
    const { next } = await track();
    // The one left is due already; the next pass comes a moment later, not at once.
    expect(await h.db.payments.where("checkAt").aboveOrEqual(0).primaryKeys()).toEqual([
      `due-${PASS_SIZE}`,
    ]);
    expect(next).toBeGreaterThanOrEqual(before + 5_000);
    expect(next).toBeLessThan(Date.now() + 30_000);
  });

  // Black-box review (finality, scenario D): a settlement found in the head block was filed for
  // good; once a reorganization dropped it, the payment stayed settled and charged for ever,
  // though the money never moved.
  it("signs a settled payment again when its settlement's block is undone, keeps it charged, and gives the charge back once a final block is past its expiry", async () => {
    const { h, track, pay, seen, collect } = await paying();
    // Earlier tests moved the chain's clock ahead: the wallet signs by it, so the token takes it.
    const aheadMs = Number((await chain.publicClient.getBlock()).timestamp) * 1000 - Date.now();
    h.clock.ms = Date.now() + aheadMs;
    const payment = await pay("undone");
    const beforeSettlement = await chain.testClient.snapshot();
    const transaction = await collect(payment);
    await track({ laterMs: aheadMs });
    expect((await h.db.payments.get(payment.id))?.state).toBe("settled");
    await chain.testClient.revert({ id: beforeSettlement });
    await expect(chain.publicClient.getTransactionReceipt({ hash: transaction })).rejects.toThrow();

    const undone = await track({ laterMs: aheadMs + 3_600_000 });
    expect([undone.released, seen.unsettled]).toEqual([0, 1]);
    const signed = await h.db.payments.get(payment.id);
    expect(signed).toMatchObject({
      state: "signed",
      reason: SETTLEMENT_UNDONE,
      charge: { micro: "10000" },
    });
    expect(signed?.settlement).toBeUndefined();
    // Still collectable until its authorization expires: looked at again, charged meanwhile.
    expect(signed?.checkAt).toBe(undone.next);
    expect((await everySum(h)).every((sum) => sum === 10_000n)).toBe(true);

    await chain.testClient.increaseTime({ seconds: 3_600 });
    await chain.testClient.mine({ blocks: 3 });
    const passed = await track({ laterMs: aheadMs + 3 * 3_600_000 });
    expect(passed).toEqual({ next: undefined, released: 1 });
    expect(await h.db.payments.get(payment.id)).toMatchObject({
      state: "expired",
      reason: UNCOLLECTABLE_REASON,
    });
    expect((await everySum(h)).every((sum) => sum === 0n)).toBe(true);
  });
});

describe("trackSettlements, without a chain", () => {
  const DAY = 24 * 3_600_000;

  it("keeps looking, once a day, at a payment a month without an endpoint, and asks at once when the person checks", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } });
    const { paymentId } = await h.engine.pay(
      { requestId: "x", challenge: x402HttpChallenge(2) },
      CALLER,
    );
    const later = h.clock.ms + 31 * DAY;
    const idle = await trackSettlements({
      db: h.db,
      endpointFor: async () => undefined,
      now: () => later,
      released: () => undefined,
      unsettled: () => undefined,
    });
    expect(idle).toBe(later + DAY);
    expect((await h.db.payments.get(paymentId))?.checkAt).toBe(later + DAY);
    // The person sets an RPC endpoint and presses "Check settlements" (ui_checkSettlements).
    await settlementChecksDueNow(h.db, later, PASS_SIZE);
    let asked = 0;
    await trackSettlements({
      db: h.db,
      endpointFor: async () => "http://127.0.0.1:9/",
      now: () => later,
      fetchFn: async () => {
        asked++;
        throw new Error("offline");
      },
      released: () => undefined,
      unsettled: () => undefined,
    });
    expect(asked).toBeGreaterThan(0);
    // Still signed and charged: only the chain can say it was never collected.
    expect(await h.db.payments.get(paymentId)).toMatchObject({ state: "signed" });
    expect((await h.db.payments.get(paymentId))?.checkAt).toBeGreaterThan(later);
  });

  it("keeps looking at a payment settled on the receiver's word alone after a month, as at a signed one", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } });
    const { paymentId } = await h.engine.pay(
      { requestId: "x", challenge: x402HttpChallenge(2) },
      CALLER,
    );
    const receipt = JSON.stringify({ success: true, network: "eip155:84532" });
    await advancePayment(h.db, paymentId, { state: "settled", receipt }, h.clock.ms);
    const later = h.clock.ms + 31 * DAY;
    await trackSettlements({
      db: h.db,
      endpointFor: async () => undefined,
      now: () => later,
      released: () => undefined,
      unsettled: () => undefined,
    });
    expect((await h.db.payments.get(paymentId))?.checkAt).toBe(later + DAY);
  });
});
