import Dexie from "dexie";
import type { PaymentRecord, WalletDb } from "../db/schema";
import { STORAGE_KEYS } from "../storage-keys";
import type { KeyValueStore } from "../wallet/key-value-store";
import { readItem, storageItem, writeItem } from "../wallet/storage-item";
import { unpaidRecord } from "../wallet/unpaid-record";

/**
 * Past this, nobody waits for the answer to a payment the person was asked
 * about: a page's request is sent again across the worker's restarts for 30
 * minutes at most (relay.ts DEFAULT_RETRY), and a Quote lives 10 at most.
 */
export const ABANDONED_AFTER_MS = 3_600_000;

export const ABANDONED_REASON =
  "Nobody was left waiting for your answer: the browser closed, or the request was given up, before you decided";

export const UNSIGNED_APPROVAL_REASON =
  "Approved, but never signed: the browser closed, or the request was given up, before the payment was made. Nothing was charged";

const browserSessionStart = storageItem(STORAGE_KEYS.browserSessionStart, (stored) =>
  typeof stored === "number" && Number.isFinite(stored) ? stored : undefined,
);

/**
 * When this browser session began, as its first worker saw it: storage.session
 * is emptied when the browser closes (and when the extension is updated), so a
 * worker that finds no start there is the session's first, and writes its own.
 * Every page that asked for a payment before it is gone.
 */
export async function browserSessionStartedAt(
  session: KeyValueStore,
  now: number,
): Promise<number> {
  const known = await readItem(session, browserSessionStart);
  if (known !== undefined) return known;
  await writeItem(session, browserSessionStart, now);
  return now;
}

/**
 * Ends the payments left asked about that nobody waits for any more: made in
 * an earlier browser session (`sessionStartedAt`) or over ABANDONED_AFTER_MS
 * ago, and not among the approvals still shown (`waiting`, by payment id) nor
 * in the engine's hands (`inHand`: its page asked again).
 * What the browser forgot when it closed (the approvals live in
 * storage.session) would otherwise read "waiting" for ever, and never leave
 * the history. One still asked ("quoted") is declined, as a closed window
 * declines; one approved but never signed nor charged (the browser closed
 * between the click and the signature) expires. Nothing was signed or charged.
 */
export async function endAbandonedAsks(
  db: WalletDb,
  waiting: () => Promise<readonly { id: string }[]>,
  now: number,
  sessionStartedAt: number,
  inHand: (payment: PaymentRecord) => boolean,
): Promise<void> {
  // The last instant abandoned: an hour ago, or just before this browser session began.
  const until = Math.max(now - ABANDONED_AFTER_MS, sessionStartedAt - 1);
  const madeBefore = (state: "quoted" | "approved") =>
    db.payments
      .where("[state+createdAt]")
      .between([state, Dexie.minKey], [state, until], true, true)
      .primaryKeys();
  const asked = [...(await madeBefore("quoted")), ...(await madeBefore("approved"))];
  if (asked.length === 0) return;
  const shown = new Set((await waiting()).map(({ id }) => id));
  const ended = asked.filter((id) => !shown.has(id));
  await db.transaction("rw", db.payments, async () => {
    for (const payment of await db.payments.bulkGet(ended)) {
      // Asked again meanwhile: the page is there after all (looked at here, where no ask can
      // slip in between the look and the write).
      const end = payment && !inHand(payment) && endOf(payment);
      if (end) await db.payments.put(unpaidRecord({ ...payment, ...end, updatedAt: now }));
    }
  });
}

/** How an abandoned ask ends; undefined for one that moved on meanwhile (the engine's now). */
function endOf(payment: PaymentRecord): Pick<PaymentRecord, "state" | "reason"> | undefined {
  if (payment.state === "quoted") return { state: "declined", reason: ABANDONED_REASON };
  // Charged ahead (an elicitation's approval): the settlement tracker gives it back at its Quote's expiry.
  if (payment.state === "approved" && payment.charge === undefined && !payment.proof) {
    return { state: "expired", reason: UNSIGNED_APPROVAL_REASON };
  }
  return undefined;
}
