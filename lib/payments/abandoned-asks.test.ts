import { describe, expect, it } from "vitest";
import {
  CALLER,
  makeHarness,
  stipendexHttpChallenge,
  until,
} from "../../tests/unit-support/payments/test-support";
import { STORAGE_KEYS } from "../storage-keys";
import { deleteHistory } from "../wallet/ledger";
import { ABANDONED_AFTER_MS, ABANDONED_REASON } from "./abandoned-asks";

async function asked() {
  const h = await makeHarness();
  const { challenge } = await stipendexHttpChallenge(h.receiver);
  void h.engine.pay({ requestId: "asked", challenge }, CALLER).catch(() => undefined);
  await until(async () => (await h.approvals.pending()).length === 1);
  return h;
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
