import { describe, expect, it } from "vitest";
import {
  CALLER,
  makeHarness,
  stipendexHttpChallenge,
  until,
} from "../../tests/unit-support/payments/test-support";
import { STORAGE_KEYS } from "../storage-keys";
import { deleteHistory } from "../wallet/ledger";
import { saveSession } from "../wallet/vault-store";
import {
  ABANDONED_AFTER_MS,
  ABANDONED_REASON,
  endAbandonedAsks,
  UNSIGNED_APPROVAL_REASON,
} from "./abandoned-asks";

async function asked() {
  const h = await makeHarness();
  const { challenge } = await stipendexHttpChallenge(h.receiver);
  void h.engine.pay({ requestId: "asked", challenge }, CALLER).catch(() => undefined);
  await until(async () => (await h.approvals.pending()).length === 1);
  return Object.assign(h, { challenge });
}

describe("a payment the person was asked about when nobody waits for it any more", () => {
  // The approvals live in storage.session, which the browser empties when it closes (and on an
  // extension update); the page that asked is gone with it.
  it("is declined by the next pass once the browser forgot it, and leaves the history", async () => {
    const h = await asked();
    for (const key of Object.values(STORAGE_KEYS)) await h.session.remove(key);
    h.restart();
    h.clock.ms += ABANDONED_AFTER_MS;
    await h.settlements.run();
    const [payment] = await h.db.payments.toArray();
    expect(payment).toMatchObject({ state: "declined", reason: ABANDONED_REASON });
    expect(payment?.proof).toBeUndefined();
    expect(await deleteHistory(h.db, h.clock.ms)).toMatchObject({ kept: 0 });
  });

  it("stays asked while its window still shows it, or while it is young", async () => {
    const h = await asked();
    h.clock.ms += ABANDONED_AFTER_MS * 3;
    await h.settlements.run();
    expect((await h.db.payments.toArray())[0]?.state).toBe("quoted");
    const young = await asked();
    for (const key of Object.values(STORAGE_KEYS)) await young.session.remove(key);
    young.clock.ms += ABANDONED_AFTER_MS - 1;
    await young.settlements.run();
    expect((await young.db.payments.toArray())[0]?.state).toBe("quoted");
  });
});

describe("payments asked about in an earlier browser session", () => {
  /** The browser closed and started again: storage.session emptied, a new worker. */
  function browserRestarted(h: Awaited<ReturnType<typeof asked>>) {
    return (async () => {
      for (const key of Object.values(STORAGE_KEYS)) await h.session.remove(key);
      h.clock.ms += 1;
      h.restart();
    })();
  }

  // Black-box review: after the browser was killed with its window open, the requests read
  // "waiting" for an hour though no page was left to wait for them.
  it("are declined by the first pass of the next session, however young", async () => {
    const h = await asked();
    await browserRestarted(h);
    await h.settlements.run();
    const [payment] = await h.db.payments.toArray();
    expect(payment).toMatchObject({ state: "declined", reason: ABANDONED_REASON });
  });

  it("expire when approved but never signed nor charged, and stay asked in a worker's restart", async () => {
    const h = await asked();
    const [quoted] = await h.db.payments.toArray();
    if (!quoted) throw new Error("no payment asked");
    // Approved, and the browser gone before the signature: nothing charged, nothing signed.
    await h.db.payments.put({ ...quoted, state: "approved", approvedBy: "person" });
    h.restart();
    await h.settlements.run();
    expect((await h.db.payments.toArray())[0]?.state).toBe("approved");
    await browserRestarted(h);
    await h.settlements.run();
    const [payment] = await h.db.payments.toArray();
    expect(payment).toMatchObject({ state: "expired", reason: UNSIGNED_APPROVAL_REASON });
    expect(payment?.charge).toBeUndefined();
  });

  // Black-box review (Firefox, the extension reloaded with the window open): the new relay
  // sent the page's request again, the person was asked again, and the first pass, which had
  // read the queue a moment before, declined the payment under the new ask.
  it("are asked again, not declined, when their page sends the request again", async () => {
    const h = await asked();
    await browserRestarted(h);
    await saveSession(h.session, h.unlocked);
    const again = h.engine.pay({ requestId: "asked", challenge: h.challenge }, CALLER);
    // The pass looks at the queue before the ask is back in it.
    await endAbandonedAsks(
      h.db,
      async () => [],
      h.clock.ms,
      h.clock.ms,
      (payment) => h.engine.inHand(payment),
    );
    expect((await h.db.payments.toArray())[0]?.state).toBe("quoted");
    await until(async () => (await h.approvals.pending()).length === 1);
    const [approval] = await h.approvals.pending();
    await h.approvals.decide({ approvalId: approval?.id ?? "", decision: "approve" });
    expect((await again).paymentId).toBe(approval?.id);
    expect((await h.db.payments.toArray())[0]?.state).toBe("signed");
    expect(h.engine.inHand({ requestKey: (await h.db.payments.toArray())[0]?.requestKey })).toBe(
      false,
    );
  });
});
