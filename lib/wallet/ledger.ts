import Dexie from "dexie";
import type { ChargeRecord, PaymentRecord, SettlementRecord, WalletDb } from "../db/schema";
import { reservedUntil, UNSETTLED, withSettlementCheck } from "../db/settlement-due";
import type { PaymentState } from "../payment-states";
import { DEFAULT_CLOCK_TOLERANCE_SECONDS } from "../protocol/envelope/envelope-jwt";
import type { Offer, PaymentOption } from "../protocol/offer";
import { countedCharge, historyInCountedDay, readRows, rowsWith, sumsIn } from "./budget-sums";
import { chargedSlots, chargeTarget, planCharge } from "./charge";
import { WalletError } from "./errors";
import { assertSettlementUndone, assertTransition } from "./payment-state";
import type { PolicySettings } from "./policy-settings";
import { unpaidRecord } from "./unpaid-record";

/**
 * The payment history and the budget charge. A payment is charged when it is signed
 * (a signed EIP-3009 authorization can be settled until validBefore), in the same
 * Dexie transaction that re-checks every cap against the running sums, so
 * concurrent 402s can never overspend. Charges are not given back when a payment
 * later fails or expires: whether an authorization was settled is not always known.
 */

export interface NewPayment {
  origin: string;
  receiver: string;
  offer: Offer;
  /** The option the wallet chose to pay with. */
  option: PaymentOption;
  /** See PaymentRecord: the page request, or the elicitation, this payment answers. */
  requestKey?: string;
  elicitedBy?: string;
  /** See PaymentRecord; kept only for an HTTP price. */
  describedTool?: string;
}

/**
 * What the ledger knows a Quote by: its receiver (the verified `iss`) and its
 * `jti`. envelope.md §2 makes a jti unique among its receiver's Quotes, so two
 * receivers may number theirs alike; §7: one Quote is never paid twice.
 */
export function quoteKey(offer: Offer): string | undefined {
  return offer.quote === undefined ? undefined : `${offer.receiver} ${offer.quote.id}`;
}

export function newRecord(input: NewPayment, now: number): PaymentRecord {
  const { option, offer } = input;
  const quoteId = quoteKey(offer);
  return {
    id: globalThis.crypto.randomUUID(),
    createdAt: now,
    updatedAt: now,
    origin: input.origin,
    receiver: input.receiver,
    state: "quoted",
    ...(quoteId === undefined ? {} : { quoteId }),
    resource: offer.resource,
    ...(input.describedTool !== undefined && offer.resource.kind === "http"
      ? { describedTool: input.describedTool }
      : {}),
    amount: option.amount.toString(),
    decimals: option.decimals,
    symbol: option.symbol,
    network: option.network,
    asset: option.asset,
    payTo: option.payTo,
    offer,
    ...(input.requestKey === undefined ? {} : { requestKey: input.requestKey }),
    ...(input.elicitedBy === undefined ? {} : { elicitedBy: input.elicitedBy }),
  };
}

async function addCounted(db: WalletDb, record: PaymentRecord): Promise<void> {
  await db.transaction("rw", db.payments, db.counters, async () => {
    await db.payments.add(record);
    const counted = await db.counters.get("payments");
    await db.counters.put({ name: "payments", value: (counted?.value ?? 0) + 1 });
  });
}

/**
 * Records an offer as "quoted". A Quote already signed is refused as a replay.
 * The Quote id is claimed only when a payment of it is signed (chargeAndSign),
 * so a request that was declined or refused, or an elicited Confirmation not
 * yet used, never blocks the one payment a Quote may have. An elicitation
 * already recorded (`elicitedBy`) is returned as it is, looked up in the same
 * transaction: a resent one must not become a second payment, charged again.
 */
export async function recordQuote(
  db: WalletDb,
  input: NewPayment,
  now: number = Date.now(),
): Promise<PaymentRecord> {
  const { quoteId, ...record } = newRecord(input, now);
  return db.transaction("rw", db.payments, db.counters, async () => {
    const elicited =
      input.elicitedBy === undefined
        ? undefined
        : await db.payments.where("elicitedBy").equals(input.elicitedBy).first();
    if (elicited !== undefined) return elicited;
    if (quoteId !== undefined && (await db.payments.where("quoteId").equals(quoteId).count()) > 0) {
      throw new WalletError(
        "duplicate-quote",
        `quote ${input.offer.quote?.id} of ${input.offer.receiver} was already recorded; it is never paid twice`,
      );
    }
    await addCounted(db, record);
    return record;
  });
}

/**
 * Records an offer refused before it could be recorded as quoted (a replayed
 * Quote id), so the history shows the attempt. It carries no quote id: the one
 * payment of that Quote keeps it.
 */
export async function recordRefusal(
  db: WalletDb,
  input: NewPayment,
  reason: string,
  now: number = Date.now(),
): Promise<PaymentRecord> {
  const { quoteId: _kept, ...record } = newRecord(input, now);
  const refused = unpaidRecord({ ...record, state: "refused", reason });
  await addCounted(db, refused);
  return refused;
}

/** Every move but "signed", which only `chargeAndSign` makes. */
export type PaymentUpdate =
  | { state: "approved"; confirmation?: string; approvedBy?: "person" | "policy" }
  | { state: "declined"; reason: string; confirmation?: string }
  | { state: "refused"; reason: string }
  | { state: "settled"; receipt: string; servedHash?: string }
  | {
      state: "failed";
      reason: string;
      receipt?: string;
      servedHash?: string;
      receiverSaid?: string;
    }
  | { state: "expired"; reason: string };

export async function advancePayment(
  db: WalletDb,
  id: string,
  update: PaymentUpdate,
  now: number,
): Promise<PaymentRecord> {
  return db.transaction("rw", db.payments, async () => {
    const payment = await db.payments.get(id);
    if (payment === undefined) throw paymentNotFound(id);
    assertTransition(id, payment.state, update.state);
    // A receipt or a refusal may name a settlement: the tracker looks at it next.
    const updated = unpaidRecord(
      withSettlementCheck({ ...payment, ...update, updatedAt: now }, now),
    );
    await db.payments.put(updated);
    return updated;
  });
}

export interface ChargeRequest {
  paymentId: string;
  settings: PolicySettings;
  /**
   * Produces the Proof (or x402 payload). Awaited before the transaction opens,
   * because a Dexie transaction commits as soon as it awaits anything else.
   */
  sign: () => Promise<string>;
  now?: number;
  /**
   * A budget's approval of a payment still "quoted", stored with its signature
   * in the same transaction: a budget's approval leaves nothing a restarted
   * worker needs before then. With `askIfOverSiteBudget`, a charge over the
   * site's budget alone writes nothing (the error is thrown, the payment stays
   * quoted): a payment made at the same time spent it, and the person can be asked.
   */
  budgetApproval?: { confirmation: string; askIfOverSiteBudget: boolean };
}

type ChargeOutcome = { payment: PaymentRecord } | { error: WalletError };

/**
 * Inside a rw transaction over payments and budgetSums: re-checks every cap and
 * adds the payment to every running sum; on a refusal, stores the payment as
 * "refused" with the reason and returns the error.
 */
async function chargeInside(
  db: WalletDb,
  payment: PaymentRecord,
  settings: PolicySettings,
  now: number,
  { overSiteBudgetUnrecorded = false } = {},
): Promise<{ charge: ChargeRecord; sums: Map<string, bigint> } | { error: WalletError }> {
  const target = chargeTarget(payment, settings, now);
  let slots = target.ok ? target.slots : [];
  let rows = await readRows(db, slots);
  // A clock set back: the day's history goes with the later day the day cap counts in.
  const counted = historyInCountedDay(slots, rows);
  if (counted !== slots) {
    slots = counted;
    rows = await readRows(db, slots);
  }
  const planned = target.ok
    ? planCharge(payment, { ...target, slots }, sumsIn(slots, rows), settings, now)
    : target;
  if ("error" in planned) {
    if (overSiteBudgetUnrecorded && planned.error.rule === "origin-budget") return planned;
    await db.payments.put(
      unpaidRecord({ ...payment, state: "refused", reason: planned.error.message, updatedAt: now }),
    );
    return planned;
  }
  await db.budgetSums.bulkPut(rowsWith(rows, slots, planned.sums, now));
  return { ...planned, charge: countedCharge(planned.charge, rows, slots) };
}

/**
 * Approves a payment and charges it in one transaction, before anything is
 * signed: for a Confirmation given by elicitation, which must count against
 * the budget it was decided under exactly as a payment would. The payment
 * that later uses it is signed without a second charge (see chargeAndSign).
 */
export async function approveAndCharge(
  db: WalletDb,
  request: {
    paymentId: string;
    settings: PolicySettings;
    confirmation: string;
    approvedBy: "person" | "policy";
    now?: number;
  },
): Promise<PaymentRecord> {
  const now = request.now ?? Date.now();
  const outcome = await db.transaction(
    "rw",
    db.payments,
    db.budgetSums,
    async (): Promise<ChargeOutcome> => {
      const payment = await db.payments.get(request.paymentId);
      if (payment === undefined) throw paymentNotFound(request.paymentId);
      assertTransition(payment.id, payment.state, "approved");
      // Over the site's budget alone, a budget's approval leaves the payment as it was: the
      // person can still be asked (an answer made at the same time spent the budget).
      const charged = await chargeInside(
        db,
        { ...payment, approvedBy: request.approvedBy },
        request.settings,
        now,
        { overSiteBudgetUnrecorded: true },
      );
      if ("error" in charged) return charged;
      // Due for the settlement tracker when its Quote expires: unused by then, the charge goes back.
      const approved = withSettlementCheck(
        {
          ...payment,
          state: "approved",
          confirmation: request.confirmation,
          approvedBy: request.approvedBy,
          charge: charged.charge,
          updatedAt: now,
        },
        now,
      );
      await db.payments.put(approved);
      return { payment: approved };
    },
  );
  if ("error" in outcome) throw outcome.error;
  return outcome.payment;
}

/**
 * The atomic step: in one rw transaction over payments and budgetSums, refuse a
 * payment already signed, re-check every cap, add the amount to every running sum
 * and store the payment as "signed" with its proof. A payment charged when it was
 * approved (approveAndCharge) is not charged again. The payment claims its Quote
 * id here, so one Quote is signed once however many requests approved it: a
 * loser is refused and its approval's charge given back. On a refusal the
 * payment is stored as "refused" with the reason, the signature is dropped, and
 * the error thrown.
 */
export async function chargeAndSign(db: WalletDb, request: ChargeRequest): Promise<PaymentRecord> {
  const { paymentId: id, settings, budgetApproval } = request;
  const now = request.now ?? Date.now();
  const proof = await request.sign();
  let outcome: ChargeOutcome;
  try {
    outcome = await db.transaction(
      "rw",
      db.payments,
      db.budgetSums,
      async (): Promise<ChargeOutcome> => {
        const stored = await db.payments.get(id);
        if (stored === undefined) throw paymentNotFound(id);
        const reserved = stored.state === "approved" && stored.charge !== undefined;
        if (stored.charge !== undefined && !reserved) {
          throw alreadyPaid(id, stored.offer.quote?.id, stored.state);
        }
        if (budgetApproval) assertTransition(id, stored.state, "approved");
        const payment: PaymentRecord = budgetApproval
          ? {
              ...stored,
              state: "approved",
              confirmation: budgetApproval.confirmation,
              approvedBy: "policy",
            }
          : stored;
        assertTransition(id, payment.state, "signed");
        let charge = payment.charge;
        if (charge === undefined) {
          const charged = await chargeInside(db, payment, settings, now, {
            overSiteBudgetUnrecorded: budgetApproval?.askIfOverSiteBudget ?? false,
          });
          if ("error" in charged) return charged;
          charge = charged.charge;
        }
        const quoteId = payment.quoteId ?? quoteKey(payment.offer);
        const signed = withSettlementCheck(
          {
            ...payment,
            ...(quoteId === undefined ? {} : { quoteId }),
            state: "signed",
            proof,
            charge,
            updatedAt: now,
          },
          now,
        );
        await db.payments.put(signed);
        return { payment: signed };
      },
    );
  } catch (error) {
    if (!(error instanceof Dexie.ConstraintError)) throw error;
    outcome = { error: await refuseSecondSignature(db, id, now, error) };
  }
  if ("error" in outcome) throw outcome.error;
  return outcome.payment;
}

/** Another payment signed the same Quote first: refuse this one and give its approval's charge back. */
async function refuseSecondSignature(
  db: WalletDb,
  id: string,
  now: number,
  cause: unknown,
): Promise<WalletError> {
  return db.transaction("rw", db.payments, db.budgetSums, async () => {
    const payment = await db.payments.get(id);
    if (payment === undefined) throw paymentNotFound(id);
    const error = alreadyPaid(id, payment.offer.quote?.id, "signed by another request", {
      cause,
    });
    if (payment.charge !== undefined) await giveBack(db, payment.origin, payment.charge, now);
    const { charge: _released, ...rest } = payment;
    await db.payments.put(
      unpaidRecord({ ...rest, state: "refused", reason: error.message, updatedAt: now }),
    );
    return error;
  });
}

/** Takes a charge back out of every running sum it was added to, never below zero (inside a rw transaction). */
async function giveBack(
  db: WalletDb,
  origin: string,
  charge: ChargeRecord,
  now: number,
): Promise<void> {
  const slots = chargedSlots(origin, charge);
  const rows = await readRows(db, slots);
  const spent = sumsIn(slots, rows);
  // A period that has ended since is not touched: its slot holds a later period now.
  const current = slots.filter(({ row, period, at }) => rows.get(row)?.periods[period]?.at === at);
  const left = new Map(
    current.map(({ key }) => {
      const amount = (spent.get(key) ?? 0n) - BigInt(charge.micro);
      return [key, amount > 0n ? amount : 0n] as const;
    }),
  );
  await db.budgetSums.bulkPut(rowsWith(rows, current, left, now));
}

/** Why a refused payment still counts against the limits, as history says it. */
export const STAYS_CHARGED =
  "It stays charged until its authorization expires unused: the receiver could still collect it until then.";

/** What history says, after its refusal, of a refused payment the receiver then collected. */
export const COLLECTED_AFTER_ALL = "The receiver collected it all the same.";

/**
 * What history adds to a payment whose settlement's block a reorganization
 * undid: it is signed again, and still charged, until the chain says more.
 */
export const SETTLEMENT_UNDONE =
  "The block that held its settlement was undone; waiting for the chain again.";

/**
 * Files what the chain says about a payment's settlement. A confirmed or used
 * authorization settles a signed or failed payment (the receiver collected
 * after all); other findings are kept beside the state. A payment already
 * released stays expired: the chain said unused past its last valid second.
 * A confirmation in a block not final yet (`final: false`) keeps the
 * payment's `checkAt`, so the tracker can look again until it is final.
 */
export async function recordSettlement(
  db: WalletDb,
  id: string,
  settlement: SettlementRecord,
  { final = true }: { final?: boolean } = {},
): Promise<PaymentRecord> {
  return db.transaction("rw", db.payments, async () => {
    const payment = await db.payments.get(id);
    if (payment === undefined) throw paymentNotFound(id);
    if (payment.state === "expired") return payment;
    const collected = settlement.status === "confirmed" || settlement.status === "used";
    const state = collected ? "settled" : payment.state;
    if (state !== payment.state) assertTransition(id, payment.state, state);
    const { checkAt, reason: _said, ...rest } = payment;
    const reason = collected ? reasonOnceCollected(payment) : payment.reason;
    const updated: PaymentRecord = {
      ...rest,
      // When to look again is the tracker's to say (scheduleSettlementChecks); once collected
      // in a final block, never: a reorganization may still undo one that is not final.
      ...(checkAt === undefined || (collected && final) ? {} : { checkAt }),
      ...(reason === undefined ? {} : { reason }),
      state,
      settlement,
      updatedAt: settlement.checkedAt,
    };
    await db.payments.put(updated);
    return updated;
  });
}

/** What history says of a payment once the chain shows it collected. */
function reasonOnceCollected(payment: PaymentRecord): string | undefined {
  // Collected again after its block was undone: the undoing is over.
  const said = payment.reason?.endsWith(SETTLEMENT_UNDONE)
    ? payment.reason.slice(0, -SETTLEMENT_UNDONE.length).trimEnd() || undefined
    : payment.reason;
  // A refusal that said it stays charged until its expiry: now it says it was collected.
  return payment.state === "failed" && said?.endsWith(STAYS_CHARGED)
    ? `${said.slice(0, -STAYS_CHARGED.length)}${COLLECTED_AFTER_ALL}`
    : said;
}

/**
 * A settled payment whose settlement the chain no longer shows (the block
 * that held it was undone before it was final) is signed again, its
 * settlement forgotten and history told why. Its charge stays: the
 * authorization can still be collected until the chain says otherwise (the
 * tracker's expired-unused rule gives it back). Its `checkAt` is kept for the
 * tracker to set. Undefined when there was nothing to undo (not settled, or
 * settled without a confirmed transaction).
 */
export async function undoSettlement(
  db: WalletDb,
  id: string,
  now: number,
): Promise<PaymentRecord | undefined> {
  return db.transaction("rw", db.payments, async () => {
    const payment = await db.payments.get(id);
    if (payment === undefined) throw paymentNotFound(id);
    if (payment.state !== "settled" || payment.settlement?.status !== "confirmed") return undefined;
    assertSettlementUndone(id, payment.state);
    const { settlement: _undone, ...rest } = payment;
    const signed: PaymentRecord = {
      ...rest,
      state: "signed",
      reason: payment.reason ? `${payment.reason} ${SETTLEMENT_UNDONE}` : SETTLEMENT_UNDONE,
      updatedAt: now,
    };
    // Unscheduled (undone outside a tracker's pass): due at once, as any signed payment.
    const undone = signed.checkAt === undefined ? withSettlementCheck(signed, now) : signed;
    await db.payments.put(undone);
    return undone;
  });
}

/** When the settlement tracker looks at a payment next (`at` undefined: never again). */
export interface ScheduledCheck {
  id: string;
  at: number | undefined;
  /** Its `checkAt` when the tracker read it. */
  seen: number | undefined;
}

/**
 * Files, in one transaction, when the settlement tracker looks at each
 * payment next, except one rescheduled since the tracker read it (a receipt
 * came meanwhile and made it due at once).
 */
export async function scheduleSettlementChecks(
  db: WalletDb,
  checks: readonly ScheduledCheck[],
): Promise<void> {
  if (checks.length === 0) return;
  await db.transaction("rw", db.payments, async () => {
    const payments = await db.payments.bulkGet(checks.map(({ id }) => id));
    const scheduled = checks.flatMap(({ at, seen }, i) => {
      const payment = payments[i];
      if (payment === undefined || payment.checkAt !== seen) return [];
      const { checkAt: _seen, ...rest } = payment;
      return [at === undefined ? rest : { ...rest, checkAt: at }];
    });
    await db.payments.bulkPut(scheduled);
  });
}

/**
 * The `limit` payments the settlement tracker would look at soonest are due
 * now (the person asked to check), or of those only the ones on `networks`
 * (their RPC endpoint just changed): no more than one pass takes, however
 * many are waiting, so a long history is not rewritten on every look.
 */
export async function settlementChecksDueNow(
  db: WalletDb,
  now: number,
  limit: number,
  networks?: ReadonlySet<string>,
): Promise<void> {
  const waiting = db.payments.where("checkAt").above(now);
  await (networks ? waiting.filter((payment) => networks.has(payment.network)) : waiting)
    .limit(limit)
    .modify({ checkAt: now });
}

/** Why a released payment is not charged, as history shows it. */
export const UNCOLLECTABLE_REASON =
  "Expired — not charged: its authorization's time ran out and the chain shows it was never used";

/**
 * A signed payment whose authorization can no longer be collected (the
 * caller checked: `validBefore` has passed and the token says the nonce was
 * never used) becomes expired, and its charge leaves every budget and cap it
 * counted against, in one transaction: once, however often it is asked.
 * Undefined when there was nothing to release (already released, never
 * charged, or not a signed payment).
 */
export async function releaseUncollectable(
  db: WalletDb,
  id: string,
  now: number,
): Promise<PaymentRecord | undefined> {
  return db.transaction("rw", db.payments, db.budgetSums, async () => {
    const payment = await db.payments.get(id);
    if (payment === undefined) throw paymentNotFound(id);
    if (!UNSETTLED.has(payment.state)) return undefined;
    return release(db, payment, UNCOLLECTABLE_REASON, now);
  });
}

/** Why an approval charged ahead that no payment used is not charged, as history shows it. */
export const UNUSED_APPROVAL_REASON =
  "Not charged: you approved it, but its Quote expired before the server asked for the payment";

/**
 * An approval charged ahead of its payment (an elicitation's Confirmation)
 * whose Quote expired before any payment used it becomes expired, and its
 * charge leaves every budget and cap, in one transaction: once, however often
 * it is asked. Undefined when there was nothing to release (signed meanwhile,
 * already released, or its Quote still valid at `now`).
 */
export async function releaseUnusedApproval(
  db: WalletDb,
  id: string,
  now: number,
  reason: string = UNUSED_APPROVAL_REASON,
): Promise<PaymentRecord | undefined> {
  return db.transaction("rw", db.payments, db.budgetSums, async () => {
    const payment = await db.payments.get(id);
    if (payment === undefined) throw paymentNotFound(id);
    const until = reservedUntil(payment);
    if (until === undefined || now < until) return undefined;
    return release(db, payment, reason, now);
  });
}

/** Expires a charged payment and gives its charge back (inside a rw transaction over payments and budgetSums). */
async function release(
  db: WalletDb,
  payment: PaymentRecord,
  reason: string,
  now: number,
): Promise<PaymentRecord | undefined> {
  const { charge, checkAt: _scheduled, ...rest } = payment;
  if (charge === undefined) return undefined;
  await giveBack(db, payment.origin, charge, now);
  const released: PaymentRecord = {
    ...rest,
    state: "expired",
    reason,
    releasedCharge: { ...charge, releasedAt: now },
    updatedAt: now,
  };
  await db.payments.put(released);
  return released;
}

function paymentNotFound(id: string): WalletError {
  return new WalletError("payment-not-found", `no payment with id ${id}`);
}

/** A payment already charged, in `state`: it is never charged twice. */
function alreadyPaid(
  id: string,
  quoteId: string | undefined,
  state: string,
  options?: { cause?: unknown },
): WalletError {
  return new WalletError(
    "quote-already-paid",
    `payment ${id}${quoteId === undefined ? "" : ` (quote ${quoteId})`} was already charged and is "${state}"`,
    options,
  );
}

/**
 * Hands an elicited, approved payment to its caller's page request, once: it
 * stops being elicited and starts answering `requestKey`. Undefined when there
 * is none (or it was already taken).
 */
export async function takeElicited(
  db: WalletDb,
  elicitedBy: string,
  requestKey: string,
): Promise<PaymentRecord | undefined> {
  return db.transaction("rw", db.payments, async () => {
    const payment = await db.payments.where("elicitedBy").equals(elicitedBy).first();
    // A declined or refused elicitation stays as it is: the payment is asked for afresh.
    if (payment?.state !== "approved") return undefined;
    const { elicitedBy: _taken, ...rest } = payment;
    const taken: PaymentRecord = { ...rest, requestKey };
    await db.payments.put(taken);
    return taken;
  });
}

/** How many payments the history holds, from the running count (not a scan). */
export async function paymentCount(db: WalletDb): Promise<number> {
  return (await db.counters.get("payments"))?.value ?? 0;
}

/**
 * Deletes every finished payment record. Those still in flight are kept (each
 * has a `checkAt`: charged and awaiting the chain, held for unlock, or an
 * approval charged ahead): the tracker must still find them to give their
 * charge back if it was never collected. So are those still being decided
 * (quoted, approved), and every payment whose Quote a page could still send:
 * its unique quoteId is what refuses paying it twice. Budget sums stay:
 * forgetting the history must not give back what was already spent this period.
 */
export async function deleteHistory(
  db: WalletDb,
  now: number,
): Promise<{ deleted: number; kept: number }> {
  return db.transaction("rw", db.payments, db.counters, async () => {
    const before = await paymentCount(db);
    const kept = await db.payments
      .filter(
        (payment) =>
          payment.checkAt !== undefined ||
          DECIDING.has(payment.state) ||
          quoteStillValid(payment, now),
      )
      .toArray();
    await db.payments.clear();
    await db.payments.bulkAdd(kept);
    await db.counters.put({ name: "payments", value: kept.length });
    return { deleted: Math.max(before - kept.length, 0), kept: kept.length };
  });
}

/** States of a payment still being decided: the engine moves it on, by its id, after a deletion. */
const DECIDING: ReadonlySet<PaymentState> = new Set(["quoted", "approved"]);

/**
 * How far the clock may have run ahead when history is deleted: a Quote that
 * seems expired by this much less could become valid again once the clock is
 * set back (NTP stepping it), and be paid a second time if its id were gone.
 */
const CLOCK_AHEAD_MARGIN_MS = 3_600_000;

/** Whether the payment's paid Quote could still be verified (and so offered again) at `now`. */
function quoteStillValid(payment: PaymentRecord, now: number): boolean {
  const expiresAt = payment.offer.quote?.expiresAt;
  if (payment.quoteId === undefined || expiresAt === undefined) return false;
  return (expiresAt + DEFAULT_CLOCK_TOLERANCE_SECONDS) * 1000 + CLOCK_AHEAD_MARGIN_MS >= now;
}
