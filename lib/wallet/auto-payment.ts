import { awaitKeepingOpen, nativeTransaction, requested } from "../db/native-transaction";
import type { BudgetSum, ChargeRecord, Counter, PaymentRecord, WalletDb } from "../db/schema";
import { withSettlementCheck } from "../db/settlement-due";
import {
  countedCharge,
  historyInCountedDay,
  laterPeriods,
  rowsOf,
  rowsWith,
  sumsIn,
} from "./budget-sums";
import { chargeTarget, planCharge } from "./charge";
import type { WalletError } from "./errors";
import { type NewPayment, newRecord } from "./ledger";
import type { PolicySettings } from "./policy-settings";
import { unpaidRecord } from "./unpaid-record";

/** What `recordAutoPayment` did. */
export type AutoPaymentOutcome =
  /** Recorded as signed and charged; `sums` are the running sums it left, `payments` the count. */
  | { kind: "signed"; payment: PaymentRecord; sums: Map<string, bigint>; payments: number }
  /** Recorded as refused (a cap re-checked against the database's sums); nothing kept signed. */
  | { kind: "refused"; error: WalletError }
  /**
   * The request, an elicitation of it, or its Quote is in the ledger already:
   * nothing written; the usual path (resume, take the elicitation, refuse the
   * replay) decides.
   */
  | { kind: "known" }
  /**
   * The site's budget no longer covers it (a payment made at the same time
   * spent it since the policy looked), and only that budget: nothing written;
   * the usual path asks the person, as it does once the policy sees it spent.
   */
  | { kind: "over-site-budget" };

/**
 * What the caller remembers the ledger holding (the running sums of the
 * payment's slots, by key, and the number of payments), from the last payment
 * it recorded. Only a hint: it is checked inside the transaction before it commits.
 */
export interface LedgerMemory {
  sums: ReadonlyMap<string, bigint>;
  payments: number;
}

/** What an automatic payment is recorded with: its Confirmation and its signed payment. */
export interface AutoSignatures {
  confirmation: string;
  proof: string;
}

interface AutoPaymentRequest {
  payment: NewPayment;
  /**
   * Signs the Confirmation and the payment; called once. On the one-round-trip
   * path it is called once the transaction's requests are on their way, so the
   * database works while it signs; nothing is stored (or sent) unless it resolves.
   */
  sign: () => Promise<AutoSignatures>;
  settings: PolicySettings;
  /** The key an elicitation of this payment by the same caller would carry. */
  elicitedBy?: string;
  now: number;
  remembered?: LedgerMemory;
}

/** What both ways of recording an automatic payment start from. */
function autoRecord(request: AutoPaymentRequest) {
  const { now, settings } = request;
  const { quoteId, ...record } = newRecord(request.payment, now);
  const approved: PaymentRecord = { ...record, state: "approved", approvedBy: "policy" };
  const target = chargeTarget(approved, settings, now);
  const signed = (charge: ChargeRecord, { confirmation, proof }: AutoSignatures): PaymentRecord =>
    withSettlementCheck(
      {
        ...approved,
        ...(quoteId === undefined ? {} : { quoteId }),
        state: "signed",
        confirmation,
        proof,
        charge,
      },
      now,
    );
  return { quoteId, approved, target, signed };
}

type LedgerStores = Record<"payments" | "counters" | "budgetSums", IDBObjectStore>;

/**
 * Every read both ways make, issued at once: whether the ledger knows the
 * request, its elicitation or its Quote already, the budget rows, the count.
 */
async function readLedger(
  { payments, counters, budgetSums }: LedgerStores,
  keys: { requestKey: string | undefined; elicitedBy: string | undefined; quoteId?: string },
  rowKeys: readonly string[],
) {
  // getKey, not count: Chromium counts with a cursor; a point lookup is one read.
  const held = (index: string, key: string | undefined) =>
    key === undefined
      ? Promise.resolve(false)
      : requested(payments.index(index).getKey(key)).then((id) => id !== undefined);
  const [requestKnown, elicited, claimed, rows, counted] = await Promise.all([
    held("requestKey", keys.requestKey),
    held("elicitedBy", keys.elicitedBy),
    held("quoteId", keys.quoteId),
    Promise.all(rowKeys.map((key) => requested<BudgetSum | undefined>(budgetSums.get(key)))),
    requested<Counter | undefined>(counters.get("payments")),
  ]);
  return {
    known: requestKnown || elicited || claimed,
    rows: new Map(rowKeys.map((key, i) => [key, rows[i]])),
    count: counted?.value ?? 0,
  };
}

/**
 * The one-round-trip way gave up (the database did not hold what the caller
 * remembered, or the signatures outlasted SIGNING_PATIENCE_MS): nothing was
 * written, and the usual way records the payment.
 */
class UsualWayNeeded extends Error {
  override name = "UsualWayNeeded";
}

/**
 * How long the one-round-trip transaction waits, open, for the signatures
 * (a few milliseconds as a rule): past it, it lets the stores go to other
 * transactions and the usual way waits for them instead.
 */
const SIGNING_PATIENCE_MS = 2_000;

/**
 * The hot path of a payment the policy approves on its own: one rw
 * transaction checks the payment is new, re-checks every cap against the
 * running sums, and stores it as signed, charged and counted — or as refused,
 * without its signature or its Quote id, over a global cap (over the site's
 * budget alone, nothing is stored: the person is asked). The usual way signs first.
 *
 * With `remembered` sums and count that allow the payment, its writes go out
 * with the reads, and it is signed while the database answers them; the
 * transaction commits only if the reads then match what was remembered, and
 * is aborted (nothing written) otherwise, and the payment recorded the usual way.
 */
export async function recordAutoPayment(
  db: WalletDb,
  request: AutoPaymentRequest,
): Promise<AutoPaymentOutcome> {
  const record = autoRecord(request);
  let signing: Promise<AutoSignatures> | undefined;
  const signatures = () => {
    if (signing === undefined) {
      signing = request.sign();
      // Awaited by whichever way records the payment; a way that writes nothing drops it.
      signing.catch(() => undefined);
    }
    return signing;
  };
  if (request.remembered) {
    const recorded = await recordFromMemory(
      db,
      request,
      { ...record, signatures },
      request.remembered,
    ).catch((error: unknown) => {
      if (error instanceof UsualWayNeeded) return undefined;
      throw error;
    });
    if (recorded) return recorded;
  }
  const { now, settings, elicitedBy } = request;
  const { requestKey } = request.payment;
  const { quoteId, target, signed } = record;
  // The usual way needs both round trips' answers before it writes: it signs first.
  const made = await signatures();
  const approved: PaymentRecord = { ...record.approved, confirmation: made.confirmation };
  const clockSlots = target.ok ? target.slots : [];
  return nativeTransaction(db, ["payments", "counters", "budgetSums"], async (stores, commit) => {
    const { payments, counters, budgetSums } = stores;
    // Every read at once, then every write at once: each await is a round trip to the database.
    const {
      known,
      rows: read,
      count,
    } = await readLedger(stores, { requestKey, elicitedBy, quoteId }, rowsOf(clockSlots));
    if (known) return { kind: "known" as const };
    const slots = historyInCountedDay(clockSlots, read);
    if (slots !== clockSlots) {
      // A clock set back: the later day's history row, in one more round trip.
      for (const key of rowsOf(slots).filter((row) => !read.has(row))) {
        read.set(key, await requested<BudgetSum | undefined>(budgetSums.get(key)));
      }
    }
    const planned = target.ok
      ? planCharge(approved, { ...target, slots }, sumsIn(slots, read), settings, now)
      : target;
    if ("error" in planned && planned.error.rule === "origin-budget") {
      return { kind: "over-site-budget" as const };
    }
    const counter: Counter = { name: "payments", value: count + 1 };
    const writes = [requested(counters.put(counter))];
    if ("error" in planned) {
      const refused = unpaidRecord({
        ...approved,
        state: "refused",
        reason: planned.error.message,
      });
      writes.push(requested(payments.add(refused)));
      commit();
      await Promise.all(writes);
      return { kind: "refused" as const, error: planned.error };
    }
    const payment = signed(countedCharge(planned.charge, read, slots), made);
    for (const row of rowsWith(read, slots, planned.sums, now)) {
      writes.push(requested(budgetSums.put(row)));
    }
    writes.push(requested(payments.add(payment)));
    // Committing now saves the round trip of waiting for the writes' own answers first.
    commit();
    await Promise.all(writes);
    return { kind: "signed" as const, payment, sums: planned.sums, payments: counter.value };
  });
}

/**
 * `recordAutoPayment` in one round trip: the lookups and reads, then at once
 * the writes `remembered` implies; the payment is signed while the database
 * answers, and added once it is (the transaction kept open meanwhile); it
 * commits once the reads agree, else throws UsualWayNeeded and the
 * transaction is aborted. Undefined (nothing done, nothing signed) when the
 * memory does not cover the payment or would refuse it.
 */
async function recordFromMemory(
  db: WalletDb,
  request: AutoPaymentRequest,
  {
    quoteId,
    approved,
    target,
    signed,
    signatures,
  }: ReturnType<typeof autoRecord> & { signatures: () => Promise<AutoSignatures> },
  remembered: LedgerMemory,
): Promise<AutoPaymentOutcome | undefined> {
  const { now, settings, elicitedBy } = request;
  const { requestKey } = request.payment;
  if (!target.ok || !target.slots.every(({ key }) => remembered.sums.has(key))) return undefined;
  const planned = planCharge(approved, target, remembered.sums, settings, now);
  if ("error" in planned) return undefined;
  const { slots } = target;
  const rowKeys = rowsOf(slots);
  const count = remembered.payments + 1;
  return nativeTransaction(db, ["payments", "counters", "budgetSums"], async (stores, commit) => {
    const { payments, counters, budgetSums } = stores;
    // Requests run in the order they are made: these reads see the database before the writes.
    // The Quote id is looked up too: a known one must abort before commit(), as Firefox commits
    // the other writes when a request fails after it (the unique index's refusal is too late).
    const checks = readLedger(stores, { requestKey, elicitedBy, quoteId }, rowKeys);
    const writes = [
      requested(counters.put({ name: "payments", value: count } satisfies Counter)),
      // A charge fills every period of its rows: nothing else in them needs keeping.
      ...rowsWith(new Map(), slots, planned.sums, now).map((row) => requested(budgetSums.put(row))),
    ];
    // Answered below, or, once aborted, not at all.
    for (const write of writes) write.catch(() => undefined);
    // Signed now, while the database works on the requests above.
    const signing = signatures();
    const { known, rows, count: counted } = await checks;
    const found = sumsIn(slots, rows);
    // A row holding a later period than now's (the clock was set back) is not blind-written over.
    const agrees =
      !known &&
      counted === remembered.payments &&
      laterPeriods(rows, slots) === undefined &&
      slots.every(({ key }) => found.get(key) === remembered.sums.get(key));
    if (!agrees) throw new UsualWayNeeded("the ledger changed since it was remembered");
    const made = await awaitKeepingOpen(counters, "payments", signing, SIGNING_PATIENCE_MS);
    if (!made) throw new UsualWayNeeded("the signatures took too long");
    const payment = signed(planned.charge, made.value);
    writes.push(requested(payments.add(payment)));
    commit();
    await Promise.all(writes);
    return { kind: "signed" as const, payment, sums: planned.sums, payments: count };
  });
}
