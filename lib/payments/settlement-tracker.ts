import Dexie from "dexie";
import { decodeJwt } from "jose";
import { z } from "zod";
import { authorizationFate } from "../chain/authorization-use";
import { checkSettlement, type SettlementCheck } from "../chain/settlement-check";
import type { PaymentRecord, SettlementRecord, WalletDb } from "../db/schema";
import type { PaymentState } from "../payment-states";
import type { Caip2, Hex } from "../protocol/offer";
import { recordSettlement, releaseUncollectable } from "../wallet/ledger";
import { type SignedAuthorization, signedAuthorizationOf } from "./signed-transfer";

export interface SettlementTrackerDeps {
  db: WalletDb;
  /** The JSON-RPC endpoint the wallet reads `network` from, when it has one. */
  endpointFor(network: Caip2): Promise<string | undefined>;
  now(): number;
  fetchFn?: typeof fetch;
  /** Called after a charge was given back: running sums kept in memory are stale. */
  released(): void;
}

/** How soon a receiver's claimed settlement that the chain does not show yet is looked at again. */
const RECHECK_CLAIM_MS = 30_000;
/** After `validBefore` by the local clock, how long until the chain is asked (its blocks lag a little). */
const AFTER_VALID_BEFORE_MS = 5_000;
/** How far back settled payments with an unconfirmed claim are looked at again. */
const CLAIMS_KEPT_MS = 30 * 24 * 3_600_000;

const TRACKED: readonly PaymentState[] = ["signed", "failed", "settled"];

/**
 * One pass over every signed payment whose money is not yet final, in the
 * background (run at start, after a receipt, and by alarm): a claimed
 * settlement is checked on chain; an authorization the chain says was used
 * settles the payment; one past its last valid second and unused is
 * released (expired, not charged). Payments on a network without an RPC
 * endpoint stay as they are. Resolves with when to look again, if ever.
 */
export async function trackSettlements(deps: SettlementTrackerDeps): Promise<number | undefined> {
  let next: number | undefined;
  for (const payment of await trackedPayments(deps.db, deps.now())) {
    let when: number | undefined;
    try {
      when = await trackOne(deps, payment);
    } catch {
      // The node did not answer: try again later, nothing changed.
      when = deps.now() + RECHECK_CLAIM_MS;
    }
    if (when !== undefined && (next === undefined || when < next)) next = when;
  }
  return next;
}

async function trackedPayments(db: WalletDb, now: number): Promise<PaymentRecord[]> {
  const lists = await Promise.all(
    TRACKED.map((state) =>
      db.payments
        .where("[state+createdAt]")
        .between(
          [state, state === "settled" ? now - CLAIMS_KEPT_MS : Dexie.minKey],
          [state, Dexie.maxKey],
        )
        .toArray(),
    ),
  );
  return lists.flat().filter(
    (payment) =>
      payment.charge !== undefined &&
      // A receipt held while the wallet is locked is checked (at unlock) before the chain is asked.
      payment.heldReceipt === undefined &&
      payment.settlement?.status !== "confirmed" &&
      payment.settlement?.status !== "used",
  );
}

async function trackOne(
  deps: SettlementTrackerDeps,
  payment: PaymentRecord,
): Promise<number | undefined> {
  let transfer: SignedAuthorization | undefined;
  try {
    transfer = signedAuthorizationOf(payment);
  } catch {
    return undefined;
  }
  const url = await deps.endpointFor(payment.network);
  if (!transfer || !url) return undefined;
  const options = deps.fetchFn ? { fetchFn: deps.fetchFn } : {};
  const claimed = claimedTransactionOf(payment);
  if (claimed) {
    const check = await checkSettlement(url, claimed, transfer, options);
    await recordSettlement(deps.db, payment.id, settlementOf(check, claimed, deps.now()));
    if (check.kind === "confirmed") return undefined;
  }
  const fate = await authorizationFate(url, transfer, options);
  if (fate.kind === "expired-unused") {
    if (await releaseUncollectable(deps.db, payment.id, deps.now())) deps.released();
    return undefined;
  }
  if (fate.kind === "used") {
    const found = fate.transaction
      ? settlementOf(
          await checkSettlement(url, fate.transaction, transfer, options),
          fate.transaction,
          deps.now(),
        )
      : undefined;
    await recordSettlement(
      deps.db,
      payment.id,
      found?.status === "confirmed" ? found : { status: "used", checkedAt: deps.now() },
    );
    return undefined;
  }
  const expiry = Number(transfer.validBefore) * 1000 + AFTER_VALID_BEFORE_MS;
  return claimed ? Math.min(expiry, deps.now() + RECHECK_CLAIM_MS) : expiry;
}

function settlementOf(
  check: SettlementCheck,
  transaction: Hex,
  checkedAt: number,
): SettlementRecord {
  switch (check.kind) {
    case "confirmed":
      return {
        status: "confirmed",
        transaction,
        blockNumber: String(check.blockNumber),
        checkedAt,
      };
    case "unknown":
      return { status: "unconfirmed", transaction, problem: check.reason, checkedAt };
    case "mismatch":
      return { status: "mismatch", transaction, problem: check.reason, checkedAt };
  }
}

const txHash = z.custom<Hex>(
  (value) => typeof value === "string" && /^0x[0-9a-fA-F]{64}$/.test(value),
);
const stipendexReceipt = z.object({ settlement: z.object({ transaction: txHash }) });
const x402Settlement = z.object({ transaction: txHash });

/** The settlement transaction a receipt names (Stipendex Receipt or x402 settle response), if any. */
export function claimedTransactionOf(payment: PaymentRecord): Hex | undefined {
  if (!payment.receipt) return undefined;
  try {
    const read = payment.offer.quote
      ? stipendexReceipt.safeParse(decodeJwt(payment.receipt))
      : x402Settlement.safeParse(JSON.parse(payment.receipt));
    if (!read.success) return undefined;
    return "settlement" in read.data ? read.data.settlement.transaction : read.data.transaction;
  } catch {
    return undefined;
  }
}
