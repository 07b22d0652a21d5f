import Dexie, { type EntityTable, type Transaction } from "dexie";
import type { PaymentState } from "../payment-states";
import type { Address, Caip2, Hex, Offer, OfferResource } from "../protocol/offer";
import { AWAITS_UNLOCK, awaitsSettlement, reservedUntil } from "./settlement-due";
import { countDexieTransactions } from "./transaction-count";

/** One payment the wallet was asked to make, whatever became of it. */
export interface PaymentRecord {
  id: string;
  createdAt: number;
  updatedAt: number;
  /** The agent page's origin as the browser reported it. */
  origin: string;
  receiver: string;
  state: PaymentState;
  /**
   * The Stipendex Quote it signed, as "<receiver> <jti>" (wallet/ledger.ts quoteKey);
   * unique where present (x402 offers have none).
   */
  quoteId?: string;
  resource: OfferResource;
  /**
   * A tool call priced by an HTTP 402 (seed 004): the tool its POST carries,
   * as the caller said; the price itself names only the address.
   */
  describedTool?: string;
  /** The chosen option's amount, atomic units as a decimal string. */
  amount: string;
  decimals: number;
  symbol: string;
  network: Caip2;
  asset: Address;
  payTo: Address;
  /** The offer as read (the Quote JWS is in `offer.quote.jws`). */
  offer: Offer;
  /** Compact JWS of the Confirmation. */
  confirmation?: string;
  /**
   * The page request this payment answers ("<origin> <tab> <frame> <requestId>"),
   * so a request asked again after the worker restarted resumes it.
   */
  requestKey?: string;
  /**
   * Set while this payment is a Confirmation given by elicitation that its
   * caller has not yet used: "<origin> <tab> <frame> <quote hash>". Only that
   * caller's payment of that Quote takes it, once.
   */
  elicitedBy?: string;
  /** Who approved it: the person (may go beyond a site's budget) or the policy (may not). */
  approvedBy?: "person" | "policy";
  /** Compact JWS of the Proof, or the x402 payment header value. Only once charged. */
  proof?: string;
  /** Compact JWS of the Receipt, or the x402 payment-response header value. */
  receipt?: string;
  /**
   * The hash of the result the page was served with a Stipendex Receipt, as the page reported
   * it: what the Receipt's `resultHash` was checked against, and is shown checked against.
   */
  servedHash?: string;
  /**
   * A receipt that arrived while the wallet was locked, kept as received until
   * unlock: its subject and payer can only be checked against the opened keys.
   * Also one whose receiver's descriptor could not be fetched, until `checkAt`.
   */
  heldReceipt?: HeldReceipt;
  /** Why it was declined, refused, failed or expired. */
  reason?: string;
  /** A receiver's refusal in its own words (its error code or the token's revert text), as it said it. */
  receiverSaid?: string;
  /**
   * Set on a request that ended with nothing paid whose price was too large to
   * keep whole: `offer` holds only its summary (wallet/unpaid-record.ts).
   */
  offerTrimmed?: true;
  /** Set in the transaction that charged the budget (see ChargeRecord). */
  charge?: ChargeRecord;
  /** What the chain says about this payment's settlement, once the wallet has asked it. */
  settlement?: SettlementRecord;
  /**
   * When the settlement tracker next asks the chain about this payment (epoch
   * ms, or AWAITS_UNLOCK); absent once there is nothing left to ask (see
   * db/settlement-due.ts). Indexed, so a pass reads only the payments due.
   */
  checkAt?: number;
  /** A charge given back (the authorization expired unused on chain): what it was, and when. */
  releasedCharge?: ChargeRecord & { releasedAt: number };
}

/**
 * A charge against the budget. The sums it was added to follow from the
 * payment's origin, the currency and `chargedAt` (wallet/limits.ts
 * sumSlotsToCharge), except those in `laterPeriods`: charged while the clock
 * was behind a period the ledger had already counted in, by the key of the
 * clock's slot, the later period key it was counted in instead
 * (wallet/budget-sums.ts periodIn). The day's spend history goes with the
 * all-sites day (wallet/limits.ts withHistoryDay): when that is not the
 * clock's day, `historyDay` is the UTC day key it was counted in. A charge
 * without one was counted in the clock's day (so were all charges stored
 * before the history followed the day cap, laterPeriods or not).
 */
export interface ChargeRecord {
  currency: string;
  micro: string;
  chargedAt: number;
  laterPeriods?: Record<string, string>;
  historyDay?: string;
}

/** What a paid retry brought back, as the page reported it (see ReceiptParams). */
export interface HeldReceipt {
  status: number;
  receipt: unknown;
  resultHash?: string;
  /**
   * When it arrived (epoch ms): it is checked as of then, however long it was
   * held. Absent in one held by an older version (then: the payment's updatedAt).
   */
  receivedAt?: number;
}

/** A settlement as checked on chain (lib/payments/settlement-tracker.ts). */
export interface SettlementRecord {
  /**
   * confirmed: the transaction used this authorization and moved the quoted amount to the payee;
   * used: the token says the authorization was used, in a transaction the wallet did not find;
   * unconfirmed: the receiver claims a transaction the chain does not (yet) show;
   * mismatch: the claimed transaction is not this payment (reverted, other transfers).
   */
  status: "confirmed" | "used" | "unconfirmed" | "mismatch";
  /** The transaction hash, claimed or found. */
  transaction?: Hex;
  /** Block number as a decimal string, when confirmed. */
  blockNumber?: string;
  /** What did not check out, in words. */
  problem?: string;
  checkedAt: number;
}

/** A running total per scope and period, e.g. key "global:USD:day:2026-11-30" (see wallet/limits.ts). */
/** One row of running sums (see wallet/budget-sums.ts): the current slot of each period it counts. */
export interface BudgetSum {
  /** "global:USD", "origin:https://agent.example:USD", "daily:USD:2026-11-30". */
  key: string;
  /** By period ("day", "week", "month", "none"): its key and the sum in micro units (6 decimals). */
  periods: Partial<Record<string, { at: string; amount: string }>>;
  updatedAt: number;
}

/** A running count kept beside the table it counts (IndexedDB's count() reads every entry). */
export interface Counter {
  name: "payments";
  value: number;
}

/**
 * The person's settings (policy, budgets, allow and deny lists, auto-lock), here rather
 * than in storage.local because content scripts can read and write
 * storage.local; the extension's IndexedDB is reachable only from its own pages
 * and the background. `revision` grows with every change, so a save from a
 * page that read an older revision is refused instead of undoing the change.
 */
export interface SettingsEntry {
  /** "policy", or a single setting such as "autoLockMinutes". */
  key: string;
  value: unknown;
  revision: number;
}

export type WalletDb = Dexie & {
  payments: EntityTable<PaymentRecord, "id">;
  budgetSums: EntityTable<BudgetSum, "key">;
  counters: EntityTable<Counter, "name">;
  settings: EntityTable<SettingsEntry, "key">;
};

export const WALLET_DB_NAME = "stipendex-wallet";

/** The one schema. Add a version (with an upgrade) here, never edit a shipped one. */
export function openWalletDb(name: string = WALLET_DB_NAME): WalletDb {
  const db = new Dexie(name) as WalletDb;
  db.version(1).stores({
    payments:
      "id, createdAt, updatedAt, origin, receiver, state, &quoteId, [origin+createdAt], [receiver+createdAt], [state+createdAt]",
    budgetSums: "key",
  });
  // v2: the number of payments, kept as they are added, so history paging need not count 100,000 rows.
  db.version(2)
    .stores({ counters: "name" })
    .upgrade(async (tx) => {
      const value = await tx.table("payments").count();
      await tx.table("counters").put({ name: "payments", value });
    });
  // v3: the policy moves out of storage.local (see SettingsEntry; PolicyStore copies an old one over),
  // and a payment knows the page request (or elicitation) it answers, instead of storage.session keys.
  db.version(3).stores({
    settings: "key",
    payments:
      "id, createdAt, updatedAt, origin, receiver, state, &quoteId, [origin+createdAt], [receiver+createdAt], [state+createdAt], requestKey, elicitedBy",
  });
  // v4: the single-field updatedAt, origin, receiver and state indexes go: nothing queries them
  // (the history reads the [field+createdAt] ones), and each cost every payment's write.
  db.version(4).stores({
    payments:
      "id, createdAt, &quoteId, [origin+createdAt], [receiver+createdAt], [state+createdAt], requestKey, elicitedBy",
  });
  // v5: a running sum is a period's slot in a row (all sites, one site, one day) rather than a
  // row of its own: a charge reads and writes three rows instead of six.
  db.version(5)
    .stores({ budgetSums: "key" })
    .upgrade(async (tx) => {
      const old = (await tx.table("budgetSums").toArray()) as { key: string; amount: string }[];
      await tx.table("budgetSums").clear();
      await tx.table("budgetSums").bulkPut(budgetRowsFromV4(old, Date.now()));
    });
  // v6: a payment knows when the settlement tracker next looks at it, so a pass reads the few
  // payments due instead of every signed one and every one settled in the last 30 days.
  db.version(6)
    .stores({
      payments:
        "id, createdAt, &quoteId, [origin+createdAt], [receiver+createdAt], [state+createdAt], requestKey, elicitedBy, checkAt",
    })
    .upgrade(scheduleUnscheduled);
  // v7: an approval charged ahead of its payment (an elicitation's) is due for the tracker when
  // its Quote expires, which gives the charge back if no payment used it (it was held for ever).
  db.version(7)
    .stores({})
    .upgrade(async (tx) => {
      await tx
        .table<PaymentRecord>("payments")
        .where("[state+createdAt]")
        .between(["approved", Dexie.minKey], ["approved", Dexie.maxKey])
        .modify((payment) => {
          const until = reservedUntil(payment);
          if (until !== undefined) payment.checkAt = until;
        });
    });
  // v8: the tracker no longer stops asking about a payment after a month without an endpoint;
  // those it had stopped asking about (still charged, never shown collected) are due again.
  db.version(8).stores({}).upgrade(scheduleUnscheduled);
  // v9: a Quote is known by its receiver and jti (wallet/ledger.ts quoteKey): two receivers may
  // number their Quotes alike. Those kept by the jti alone are keyed so too, so none is paid twice.
  db.version(9)
    .stores({})
    .upgrade((tx) =>
      tx
        .table<PaymentRecord>("payments")
        .where("quoteId")
        .aboveOrEqual("")
        .modify((payment) => {
          payment.quoteId = `${payment.receiver} ${payment.quoteId}`;
        }),
    );
  countDexieTransactions(db);
  return db;
}

/** Makes due now each payment the chain may still settle that the tracker is not set to look at. */
async function scheduleUnscheduled(tx: Transaction): Promise<void> {
  for (const state of ["signed", "failed", "settled"]) {
    await tx
      .table<PaymentRecord>("payments")
      .where("[state+createdAt]")
      .between([state, Dexie.minKey], [state, Dexie.maxKey])
      .modify((payment) => {
        if (payment.checkAt !== undefined || !awaitsSettlement(payment)) return;
        payment.checkAt = payment.heldReceipt === undefined ? 0 : AWAITS_UNLOCK;
      });
  }
}

/**
 * v4 kept each sum in a row of its own, keyed "<row>:<period>:<period key>"
 * ("global:USD:day:2026-11-30", "origin:https://x:8080:USD:none:all"): the
 * period and its key are the last two parts. Each row keeps the latest key of
 * each period (an older one no longer counts); every all-sites day also
 * becomes that day's row of the spend history.
 */
export function budgetRowsFromV4(
  old: readonly { key: string; amount: string }[],
  now: number,
): BudgetSum[] {
  const rows = new Map<string, BudgetSum>();
  const slot = (row: string, period: string, at: string, amount: string) => {
    const kept = rows.get(row) ?? { key: row, periods: {}, updatedAt: now };
    const current = kept.periods[period];
    if (current === undefined || current.at < at) kept.periods[period] = { at, amount };
    rows.set(row, kept);
  };
  for (const { key, amount } of old) {
    const atStart = key.lastIndexOf(":");
    const periodStart = key.lastIndexOf(":", atStart - 1);
    if (periodStart < 0) continue;
    const row = key.slice(0, periodStart);
    const period = key.slice(periodStart + 1, atStart);
    const at = key.slice(atStart + 1);
    slot(row, period, at, amount);
    if (row.startsWith("global:") && period === "day") {
      slot(`daily:${row.slice("global:".length)}:${at}`, period, at, amount);
    }
  }
  return [...rows.values()];
}
