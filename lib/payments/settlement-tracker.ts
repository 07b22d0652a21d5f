import { decodeJwt } from "jose";
import { z } from "zod";
import { authorizationFate, type ChainView, viewChain } from "../chain/authorization-use";
import { checkSettlement, type SettlementCheck } from "../chain/settlement-check";
import type { PaymentRecord, SettlementRecord, WalletDb } from "../db/schema";
import { reservedUntil } from "../db/settlement-due";
import type { Caip2, Hex } from "../protocol/offer";
import {
  recordSettlement,
  releaseUncollectable,
  releaseUnusedApproval,
  type ScheduledCheck,
  scheduleSettlementChecks,
  undoSettlement,
} from "../wallet/ledger";
import { optionOf } from "./engine-parts";
import { type SignedAuthorization, signedAuthorizationOf } from "./signed-transfer";

export interface SettlementTrackerDeps {
  db: WalletDb;
  /** The JSON-RPC endpoint the wallet reads `network` from, when it has one. */
  endpointFor(network: Caip2): Promise<string | undefined>;
  now(): number;
  fetchFn?: typeof fetch;
  /** Called after a charge was given back: running sums kept in memory are stale. */
  released(): void;
  /**
   * Called after a settlement was undone (its block dropped by a
   * reorganization): the payment is pending again, so balances kept in
   * memory less what is pending are stale. Its charge still counts.
   */
  unsettled(): void;
  /** Kept across passes by the caller, so a node that keeps failing is asked less and less often. */
  backoff?: NodeBackoff;
}

/** How soon a receiver's claimed settlement that the chain does not show yet is looked at again. */
const RECHECK_CLAIM_MS = 30_000;
/** After the chain's clock should reach `validBefore`, how long until it is asked (its blocks lag a little). */
const AFTER_VALID_BEFORE_MS = 5_000;
/** The soonest an authorization still open on chain is asked about again: a chain whose blocks stall is not asked every few seconds. */
const RECHECK_OPEN_MS = 30_000;
/** The latest: a final block that lags far (finality stalled, a node still syncing) may catch up any minute. */
const MAX_RECHECK_OPEN_MS = 3_600_000;
/**
 * The soonest a settlement in a block not final yet is looked at again, and
 * the latest: about when the final block should have reached it.
 */
const RECHECK_UNFINAL_MS = 30_000;
const MAX_RECHECK_UNFINAL_MS = 3_600_000;
/** A network the wallet has no RPC endpoint for is looked at again this much later (one may be set meanwhile). */
const NO_ENDPOINT_RECHECK_MS = 3_600_000;
/** A payment this old, still without an endpoint, is looked at less often... */
const STALE_AFTER_MS = 30 * 24 * 3_600_000;
/** ...but never dropped: its charge stands until the chain can be asked (the person's check makes it due at once). */
const STALE_RECHECK_MS = 24 * 3_600_000;
/** The longest a node that does not answer is left alone. */
const MAX_NODE_BACKOFF_MS = 3_600_000;

/**
 * How long to leave a node that did not answer before its payments are looked
 * at again: 30 s, doubled for each pass in a row it failed, at most an hour.
 */
export class NodeBackoff {
  private readonly failures = new Map<string, number>();

  failed(url: string): number {
    const failures = (this.failures.get(url) ?? 0) + 1;
    this.failures.set(url, failures);
    return Math.min(RECHECK_CLAIM_MS * 2 ** (failures - 1), MAX_NODE_BACKOFF_MS);
  }

  answered(url: string): void {
    this.failures.delete(url);
  }
}

/** The most payments one pass looks at; the next pass takes the rest, a moment later. */
export const PASS_SIZE = 200;
/** Between passes over a backlog, so they leave the worker and the database to the person's requests. */
const BACKLOG_PAUSE_MS = 5_000;

/**
 * One pass over the payments due for a look (db/settlement-due.ts), in the
 * background (run at start, after a receipt, and by alarm): a claimed
 * settlement is checked on chain; an authorization the chain says was used
 * settles the payment; one past its last valid second and unused is
 * released (expired, not charged), as is an approval charged ahead (an
 * elicitation's) whose Quote expired before any payment used it. Each is
 * given when to be looked at next; a node that does not answer is asked once
 * a pass. Resolves with when the next pass should run (when the next payment
 * is due, and not at once), if ever.
 */
export async function trackSettlements(deps: SettlementTrackerDeps): Promise<number | undefined> {
  const due = await deps.db.payments
    .where("checkAt")
    .between(0, deps.now(), true, true)
    .limit(PASS_SIZE)
    .toArray();
  const pass: Pass = {
    backoff: deps.backoff ?? new NodeBackoff(),
    unreachable: new Map(),
    views: new Map(),
  };
  const checks: ScheduledCheck[] = [];
  for (const payment of due) {
    let at: number | undefined;
    try {
      at = await trackOne(deps, payment, pass);
    } catch {
      // Not the node (it is handled inside): the wallet's own settings could not be read. Later.
      at = deps.now() + RECHECK_CLAIM_MS;
    }
    checks.push({ id: payment.id, at, seen: payment.checkAt });
  }
  await scheduleSettlementChecks(deps.db, checks);
  const next = (await deps.db.payments.where("checkAt").aboveOrEqual(0).first())?.checkAt;
  return next === undefined ? undefined : Math.max(next, deps.now() + BACKLOG_PAUSE_MS);
}

/** What one pass keeps about each node (by URL) it asks. */
interface Pass {
  backoff: NodeBackoff;
  /** How long a node that did not answer is left alone. */
  unreachable: Map<string, number>;
  /** A node's chain, final block and head, read once for all its payments. */
  views: Map<string, ChainView>;
}

async function trackOne(
  deps: SettlementTrackerDeps,
  payment: PaymentRecord,
  pass: Pass,
): Promise<number | undefined> {
  const now = deps.now();
  const reserved = reservedUntil(payment);
  if (reserved !== undefined) {
    // An approval charged ahead: usable until its Quote expires, then its charge goes back.
    if (now < reserved) return reserved;
    if (await releaseUnusedApproval(deps.db, payment.id, now)) deps.released();
    return undefined;
  }
  let transfer: SignedAuthorization | undefined;
  try {
    transfer = signedAuthorizationOf(payment);
  } catch {
    return undefined;
  }
  if (!transfer) return undefined;
  const url = await deps.endpointFor(payment.network);
  if (!url) {
    return (
      now + (now - payment.createdAt > STALE_AFTER_MS ? STALE_RECHECK_MS : NO_ENDPOINT_RECHECK_MS)
    );
  }
  // A node that did not answer this pass is not asked again in it.
  const waiting = pass.unreachable.get(url);
  if (waiting !== undefined) return now + waiting;
  try {
    const view = pass.views.get(url) ?? (await viewChain(url, fetchOf(deps)));
    pass.views.set(url, view);
    const at = await askChain(deps, payment, transfer, url, view);
    pass.backoff.answered(url);
    return at;
  } catch {
    // Nothing changed: looked at again once the node has been left alone a while.
    const wait = pass.backoff.failed(url);
    pass.unreachable.set(url, wait);
    return now + wait;
  }
}

async function askChain(
  deps: SettlementTrackerDeps,
  payment: PaymentRecord,
  transfer: SignedAuthorization,
  url: string,
  view: ChainView,
): Promise<number | undefined> {
  const options = fetchOf(deps);
  const confirmed = unfinalTransactionOf(payment);
  if (confirmed) {
    const check = await checkSettlement(url, confirmed, transfer, options);
    if (check.kind === "confirmed") return settled(deps, payment, check, confirmed, view);
    // The chain dropped it: signed again, and tracked as any signed payment below.
    if (await undoSettlement(deps.db, payment.id, deps.now())) deps.unsettled();
  }
  const claimed = claimedTransactionOf(payment);
  if (claimed) {
    const check = await checkSettlement(url, claimed, transfer, options);
    if (check.kind === "confirmed") return settled(deps, payment, check, claimed, view);
    await recordSettlement(deps.db, payment.id, settlementOf(check, claimed, deps.now()));
  }
  const fate = await authorizationFate(
    url,
    { ...transfer, chainId: optionOf(payment).chainId },
    { ...options, view },
  );
  if (fate.kind === "expired-unused") {
    if (await releaseUncollectable(deps.db, payment.id, deps.now())) deps.released();
    return undefined;
  }
  if (fate.kind === "used") {
    const check = fate.transaction
      ? await checkSettlement(url, fate.transaction, transfer, options)
      : undefined;
    if (fate.transaction && check?.kind === "confirmed") {
      return settled(deps, payment, check, fate.transaction, view);
    }
    await recordSettlement(deps.db, payment.id, { status: "used", checkedAt: deps.now() });
    return undefined;
  }
  // By the chain's clock, not the local one (which may run ahead): the token compares validBefore with it.
  const untilExpiry = Number(transfer.validBefore - fate.chainTime) * 1000 + AFTER_VALID_BEFORE_MS;
  const wait = Math.min(Math.max(untilExpiry, RECHECK_OPEN_MS), MAX_RECHECK_OPEN_MS);
  return deps.now() + (claimed ? RECHECK_CLAIM_MS : wait);
}

/**
 * Files a settlement the chain confirms. In a block at or below the final
 * one it is never looked at again; above it, a reorganization may still drop
 * it, so it is looked at again about when the final block should have
 * reached it (the final block's lag behind the clock, within bounds).
 */
async function settled(
  deps: SettlementTrackerDeps,
  payment: PaymentRecord,
  check: SettlementCheck & { kind: "confirmed" },
  transaction: Hex,
  view: ChainView,
): Promise<number | undefined> {
  const final = check.blockNumber <= view.final.number;
  await recordSettlement(deps.db, payment.id, settlementOf(check, transaction, deps.now()), {
    final,
  });
  if (final) return undefined;
  const lag = deps.now() - Number(view.final.timestamp) * 1000;
  return deps.now() + Math.min(Math.max(lag, RECHECK_UNFINAL_MS), MAX_RECHECK_UNFINAL_MS);
}

/** The transaction of a settlement filed as confirmed, looked at again while its block may not be final. */
function unfinalTransactionOf(payment: PaymentRecord): Hex | undefined {
  const { settlement } = payment;
  return payment.state === "settled" && settlement?.status === "confirmed"
    ? settlement.transaction
    : undefined;
}

const fetchOf = (deps: SettlementTrackerDeps) => (deps.fetchFn ? { fetchFn: deps.fetchFn } : {});

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
