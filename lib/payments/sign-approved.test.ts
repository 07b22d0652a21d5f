import { describe, expect, it } from "vitest";
import {
  AGENT,
  AUTO_BUDGET,
  CALLER,
  type Harness,
  makeHarness,
  stipendexHttpChallenge,
  until,
} from "../../tests/unit-support/payments/test-support";
import { type EngineParts, requestKeyOf } from "./engine-parts";

/**
 * Locks the wallet while the engine gets the signer for the `nth` time from
 * now, as the auto-lock alarm could: after it fetched the wallet, before it
 * signs. (A person's approval gets it twice: once for their Confirmation.)
 */
function lockAtSigner(h: Harness, nth: number): void {
  const { parts } = h.engine as unknown as { parts: EngineParts };
  const signer = parts.signer.bind(parts);
  let calls = 0;
  parts.signer = async (wallet) => {
    calls += 1;
    if (calls === nth) await h.wallet.lock();
    return signer(wallet);
  };
}

/** Locks the wallet while its EVM key signs a payment's authorization, as the auto-lock alarm could. */
async function lockWhileSigning(h: Harness): Promise<void> {
  const wallet = await h.wallet.current();
  if (!wallet) return expect.unreachable("the wallet is locked already");
  const account = wallet.evmAccount;
  const signTypedData = account.signTypedData.bind(account);
  account.signTypedData = async (typed) => {
    await h.wallet.lock();
    return signTypedData(typed);
  };
}

/** The one payment stayed where the lock found it (`state`): no proof, no charge. */
async function assertUnsigned(h: Harness, state: "quoted" | "approved"): Promise<void> {
  const [payment, ...others] = await h.db.payments.toArray();
  expect(others).toEqual([]);
  expect(payment?.state).toBe(state);
  expect(payment?.proof).toBeUndefined();
  expect(await h.db.budgetSums.count()).toBe(0);
}

describe("signing after a lock", () => {
  it("does not pay on its own with a wallet locked after it was fetched: it asks instead", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    lockAtSigner(h, 1);
    const paid = h.engine.pay({ requestId: "hot", challenge }, CALLER);
    paid.catch(() => undefined);
    await until(async () => (await h.approvals.pending()).length === 1);
    await assertUnsigned(h, "quoted");
  });

  it("does not send a payment signed on its own while a lock landed", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    await lockWhileSigning(h);
    const paid = h.engine.pay({ requestId: "hot", challenge }, CALLER);
    paid.catch(() => undefined);
    await until(async () => (await h.approvals.pending()).length === 1);
    await assertUnsigned(h, "quoted");
  });

  it("does not send or keep a payment signed on its own, with the ledger remembered, while a lock landed", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const first = await stipendexHttpChallenge(h.receiver);
    await h.engine.pay({ requestId: "first", challenge: first.challenge }, CALLER);
    const sums = await h.db.budgetSums.toArray();
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    await lockWhileSigning(h);
    const paid = h.engine.pay({ requestId: "hot", challenge }, CALLER);
    paid.catch(() => undefined);
    await until(async () => (await h.approvals.pending()).length === 1);
    const second = await h.db.payments
      .where("requestKey")
      .equals(requestKeyOf(CALLER, "hot"))
      .toArray();
    expect(second.map(({ state, proof }) => ({ state, proof }))).toEqual([
      { state: "quoted", proof: undefined },
    ]);
    expect(await h.db.budgetSums.toArray()).toEqual(sums);
  });

  /** The person approves a payment they were asked about; the `nth` signer fetch after it locks. */
  async function approvedWithLockAt(nth: number): Promise<Harness> {
    const h = await makeHarness();
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "asked", challenge }, CALLER);
    paid.catch(() => undefined);
    await until(async () => (await h.approvals.pending()).length === 1);
    const [waiting] = await h.approvals.pending();
    lockAtSigner(h, nth);
    await h.approvals.decide({ approvalId: waiting?.id ?? "", decision: "approve" });
    await expect(paid).rejects.toMatchObject({ name: "PaymentError", code: "wallet-locked" });
    return h;
  }

  it("does not sign the person's Confirmation with a wallet locked after it was fetched", async () => {
    const h = await approvedWithLockAt(1);
    const [payment] = await h.db.payments.toArray();
    expect(payment?.confirmation).toBeUndefined();
    await assertUnsigned(h, "quoted");
  });

  it("does not sign an approved payment with a wallet locked after it was fetched", async () => {
    const h = await approvedWithLockAt(2);
    // The person's approval stands; nothing was signed or charged under it.
    await assertUnsigned(h, "approved");
  });
});
