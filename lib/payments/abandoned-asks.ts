import Dexie from "dexie";
import type { WalletDb } from "../db/schema";
import { unpaidRecord } from "../wallet/unpaid-record";

/**
 * Past this, nobody waits for the answer to a payment the person was asked
 * about: a page's request is sent again across the worker's restarts for 30
 * minutes at most (relay.ts DEFAULT_RETRY), and a Quote lives 10 at most.
 */
export const ABANDONED_AFTER_MS = 3_600_000;

export const ABANDONED_REASON =
  "Nobody was left waiting for your answer: the browser closed, or the request was given up, before you decided";

/**
 * Ends the payments left asked about ("quoted") that nobody waits for any more:
 * older than ABANDONED_AFTER_MS and not among the approvals still shown
 * (`waiting`, by payment id). What the browser forgot when it closed (the
 * approvals live in storage.session) would otherwise read "waiting" for ever,
 * and never leave the history. Declined, as a closed window declines: nothing
 * was signed or charged.
 */
export async function endAbandonedAsks(
  db: WalletDb,
  waiting: () => Promise<readonly { id: string }[]>,
  now: number,
): Promise<void> {
  const asked = await db.payments
    .where("[state+createdAt]")
    .between(["quoted", Dexie.minKey], ["quoted", now - ABANDONED_AFTER_MS], true, true)
    .primaryKeys();
  if (asked.length === 0) return;
  const shown = new Set((await waiting()).map(({ id }) => id));
  const ended = asked.filter((id) => !shown.has(id));
  await db.transaction("rw", db.payments, async () => {
    for (const payment of await db.payments.bulkGet(ended)) {
      // Moved on meanwhile (asked again and answered): it is the engine's.
      if (payment?.state !== "quoted") continue;
      const declined = { ...payment, state: "declined" as const, reason: ABANDONED_REASON };
      await db.payments.put(unpaidRecord({ ...declined, updatedAt: now }));
    }
  });
}
