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
  TEST_AUTO_BUDGET,
  x402HttpChallenge,
} from "../../tests/unit-support/payments/test-support";
import { readAllSums } from "../wallet/budget-sums";
import { UNCOLLECTABLE_REASON } from "../wallet/ledger";
import { claimedTransactionOf, trackSettlements } from "./settlement-tracker";
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
    const track = ({ withEndpoint = true } = {}) => {
      let released = 0;
      return trackSettlements({
        db: h.db,
        endpointFor: async () => (withEndpoint ? chain.rpcUrl : undefined),
        now: () => Date.now(),
        released: () => {
          released++;
        },
      }).then((next) => ({ next, released }));
    };
    const pay = async (requestId: string) => {
      const answer = await h.engine.pay({ requestId, challenge: x402HttpChallenge(2) }, CALLER);
      const payment = await h.db.payments.get(answer.paymentId);
      if (!payment) throw new Error("the payment was not recorded");
      return payment;
    };
    return { h, track, pay };
  }

  it("settles a payment the chain shows collected, with its transaction, though no receipt came", async () => {
    const { h, track, pay } = await paying();
    const payment = await pay("collected");
    const transfer = signedAuthorizationOf(payment);
    if (!transfer) return expect.unreachable("no authorization");
    const facilitator = chain.walletClient(chain.accounts.facilitator).extend(publicActions);
    const payload = JSON.parse(atob(payment.proof ?? "")) as {
      payload: Parameters<typeof settleAuthorization>[2];
    };
    const { transaction } = await settleAuthorization(
      facilitator,
      chain.token.address,
      payload.payload,
    );
    const { next } = await track();
    expect(next).toBeUndefined();
    expect(await h.db.payments.get(payment.id)).toMatchObject({
      state: "settled",
      settlement: { status: "confirmed", transaction },
      charge: { micro: "10000" },
    });
  });

  it("leaves a payment whose receipt is held for unlock to that check, collected or not", async () => {
    const { h, track, pay } = await paying();
    const payment = await pay("held");
    const facilitator = chain.walletClient(chain.accounts.facilitator).extend(publicActions);
    const payload = JSON.parse(atob(payment.proof ?? "")) as {
      payload: Parameters<typeof settleAuthorization>[2];
    };
    await settleAuthorization(facilitator, chain.token.address, payload.payload);
    await h.db.payments.update(payment.id, { heldReceipt: { status: 200, receipt: "held" } });
    await track();
    expect((await h.db.payments.get(payment.id))?.state).toBe("signed");
    await h.db.payments.update(payment.id, { heldReceipt: undefined });
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
    const passed = await track();
    expect(passed).toEqual({ next: undefined, released: 1 });
    expect(await h.db.payments.get(payment.id)).toMatchObject({
      state: "expired",
      reason: UNCOLLECTABLE_REASON,
    });
    expect((await everySum(h)).every((sum) => sum === 0n)).toBe(true);
    expect(await track()).toEqual({ next: undefined, released: 0 });
  });

  it("leaves a payment alone on a network it has no endpoint for", async () => {
    const { h, track, pay } = await paying();
    const payment = await pay("no-rpc");
    await chain.testClient.increaseTime({ seconds: 3_600 });
    await chain.testClient.mine({ blocks: 1 });
    expect(await track({ withEndpoint: false })).toEqual({ next: undefined, released: 0 });
    expect((await h.db.payments.get(payment.id))?.state).toBe("signed");
  });
});
