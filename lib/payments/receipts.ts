import type { HeldReceipt, PaymentRecord, WalletDb } from "../db/schema";
import { AWAITS_UNLOCK, withSettlementCheck } from "../db/settlement-due";
import { errorText } from "../errors";
import type { ReceiptParams } from "../messages";
import { objectHash } from "../protocol/envelope/object-hash";
import { readReceiptValue, verifyReceipt } from "../protocol/envelope/receipt";
import { isProtocolError } from "../protocol/errors";
import { resolveNetwork } from "../protocol/rails/networks";
import { readSettleResponse } from "../protocol/x402/settlement";
import { decodeBase64Json } from "../protocol/x402/wire";
import { advancePayment, STAYS_CHARGED } from "../wallet/ledger";
import type { DescriptorSource } from "./descriptors";
import { isPaymentError, PaymentError, unknownPayment } from "./errors";
import { readRefusal } from "./refusal";

/** How long after a Receipt arrived its receiver's descriptor is waited for, before the Receipt is refused for want of it. */
const DESCRIPTOR_WAIT_MS = 24 * 3_600_000;
/** Between tries for that descriptor: as long again as it has been waited for, from a minute to an hour. */
const DESCRIPTOR_RETRY_MS = { least: 60_000, most: 3_600_000 };

export interface ReceiptDeps {
  db: WalletDb;
  descriptors: DescriptorSource;
  /** The paying wallet: its id (Receipt `sub`) and address (settlement `payer`). */
  wallet(): Promise<{ walletId: string; address: string } | undefined>;
  now(): number;
}

/**
 * Files what the paid retry brought back. A Stipendex Receipt is verified
 * (receiver key, qh, ph, subject, settlement); an x402 settle response is
 * read and its payer checked. A receipt that does not check out is kept, as a
 * failed one, with the reason. While the wallet is locked the receipt is held
 * as received, and checked at unlock (fileHeldReceipts) as of its arrival.
 */
export async function fileReceipt(
  deps: ReceiptDeps,
  params: ReceiptParams,
  origin: string,
): Promise<{ state: string }> {
  const payment = await deps.db.payments.get(params.paymentId);
  if (!payment || payment.origin !== origin) throw unknownPayment(params.paymentId);
  if (payment.state !== "signed") return { state: payment.state };
  // One paid call, one receipt: a page cannot take back what it reported (an x402 claim stays
  // signed), neither after it was filed nor while it is (checking one takes a descriptor, a key).
  if (
    payment.receipt !== undefined ||
    payment.heldReceipt !== undefined ||
    filing.has(payment.id)
  ) {
    return { state: payment.state };
  }
  filing.add(payment.id);
  try {
    return await fileFirst(deps, payment, params);
  } finally {
    filing.delete(payment.id);
  }
}

/** Payments whose first receipt is being filed (one background files them all). */
const filing = new Set<string>();

async function fileFirst(
  deps: ReceiptDeps,
  payment: PaymentRecord,
  params: ReceiptParams,
): Promise<{ state: string }> {
  if (params.error) {
    const refusal = readRefusal(params.error, payment.offer.quote ? undefined : params.receipt);
    const updated = await advancePayment(
      deps.db,
      payment.id,
      { state: "failed", reason: `${refusal.plain} ${STAYS_CHARGED}`, receiverSaid: refusal.said },
      deps.now(),
    );
    return { state: updated.state };
  }
  // An empty header is none (x402's own client reads it so): nothing to check, nothing failed.
  if (isNoReceipt(params.receipt)) {
    const reason = unansweredReason(params);
    // An answer that came after all (on a stream the page resumed) takes back the earlier report
    // that none had come; an answer with nothing to report, nothing to write.
    if (reason === undefined && payment.reason === undefined) return { state: payment.state };
    // It stays signed: whether the server collected it, the chain tells.
    await deps.db.payments
      .where("id")
      .equals(payment.id)
      .filter((stored) => stored.state === "signed")
      .modify({ reason, updatedAt: deps.now() });
    return { state: payment.state };
  }
  // A receipt beside an answer without the result (seed 004 settles before its tool runs; an
  // x402 server settling up front answers its handler's failure with the settle response):
  // history says both. A rejected receipt's reason replaces this one. One that came after all
  // (on a stream the page resumed) takes back the earlier report that none had come.
  const unanswered =
    ((params.unanswered || params.status >= 400) && unansweredReason(params)) || undefined;
  if (unanswered !== undefined || payment.reason !== undefined) {
    await deps.db.payments.update(payment.id, { reason: unanswered });
  }
  const filed = await fileReceived(deps, payment, {
    status: params.status,
    receipt: params.receipt,
    ...(params.resultHash === undefined ? {} : { resultHash: params.resultHash }),
    receivedAt: deps.now(),
  });
  return { state: filed.state };
}

/**
 * What history says of a paid retry that brought no refusal and no result
 * (with a receipt or not): nothing for an answer that simply came without a receipt.
 */
export function unansweredReason({
  status,
  unanswered,
  answerError,
}: Pick<ReceiptParams, "status" | "unanswered" | "answerError">): string | undefined {
  if (unanswered === "error-answer") {
    const said = answerError?.message ? `: ${answerError.message}` : "";
    const code = answerError ? ` (JSON-RPC error ${answerError.code})` : "";
    return `The server answered the paid call with an error instead of the result that was paid for${said}${code}.`;
  }
  if (unanswered === "no-response") {
    return "The server gave no answer to the paid request: the connection failed or was cut.";
  }
  if (unanswered === "stream-ended") {
    return "The server's stream ended before it sent the result that was paid for.";
  }
  if (unanswered === "redirected") {
    return "The server answered the paid request with a redirect, which the wallet never follows with a payment: the result that was paid for did not come.";
  }
  if (unanswered === "given-up") {
    return "The call was given up by its caller after the paid request went out: the server may still have taken it, and the payment with it.";
  }
  if (unanswered === "not-sent") {
    return "Signed but never sent: the request was given up before the paid retry went out.";
  }
  if (status >= 400) {
    return `The server answered the paid request with HTTP ${status} instead of the result that was paid for.`;
  }
  if (unanswered === "not-an-answer") {
    return "The server's answer to the paid call was not the result that was paid for.";
  }
  return undefined;
}

/**
 * Checks the receipts held while the wallet was locked, now that it is not,
 * and those held for a descriptor that are due again. Each is filed as of when
 * it arrived, then let go unless it is held again; a pass cut short is
 * finished by the next one, as is one that could not be filed. While the
 * wallet is locked, those due wait for unlock instead, out of the settlement
 * tracker's way.
 */
export async function fileHeldReceipts(deps: ReceiptDeps): Promise<number> {
  // One held for a descriptor is due at a time, like any payment: the range reads those too.
  const due = deps.db.payments.where("checkAt").between(AWAITS_UNLOCK, deps.now(), true, true);
  if (!(await deps.wallet())) {
    await due
      .filter((payment) => payment.checkAt !== AWAITS_UNLOCK && payment.heldReceipt !== undefined)
      .modify({ checkAt: AWAITS_UNLOCK });
    return 0;
  }
  const holding = await due
    .filter((payment) => payment.checkAt === AWAITS_UNLOCK || payment.heldReceipt !== undefined)
    .toArray();
  for (const payment of holding) {
    const held = payment.heldReceipt;
    if (held && payment.state === "signed") {
      // One held by an older version has no arrival time: it was held at its last change.
      const receivedAt = held.receivedAt ?? payment.updatedAt;
      try {
        if ((await fileReceived(deps, payment, { ...held, receivedAt })).held) continue;
      } catch {
        // Moved meanwhile (a late report from its page) or unreadable: it stays held, for
        // the next pass, and the others are filed and the settlement check goes on.
        continue;
      }
    }
    const now = deps.now();
    await deps.db.payments
      .where("id")
      .equals(payment.id)
      .modify((filed, ref) => {
        const { heldReceipt: _filed, ...rest } = filed;
        // Filing it scheduled the settlement check, unless nothing changed: then it is due now.
        ref.value = filed.checkAt === AWAITS_UNLOCK ? withSettlementCheck(rest, now) : rest;
      });
  }
  return holding.length;
}

type PayingWallet = { walletId: string; address: string };

/** A receipt as it arrived, and when. */
type Received = HeldReceipt & { receivedAt: number };

/** The payment's state once a receipt was filed, and whether it is held to be filed later. */
type Filed = { state: string; held: boolean };

/**
 * Files a receipt of a signed payment as of when it arrived: verified, or
 * kept as a failed one with the reason. It is held instead while the wallet
 * is locked, and while the receiver's descriptor cannot be fetched (for a day
 * at most): a paid payment is not failed for a moment's network trouble.
 */
async function fileReceived(
  deps: ReceiptDeps,
  payment: PaymentRecord,
  received: Received,
): Promise<Filed> {
  const wallet = await deps.wallet();
  if (!wallet) return hold(deps, payment, received, AWAITS_UNLOCK);
  let kept =
    typeof received.receipt === "string" ? received.receipt : JSON.stringify(received.receipt);
  const served =
    payment.offer.quote && received.resultHash !== undefined
      ? { servedHash: received.resultHash }
      : {};
  try {
    // Checked now; the settlement it claims is not trusted on its own word (a Stipendex
    // Receipt's is the receiver's, an x402 settle response's nobody's): the payment stays
    // signed, its amount pending, until the chain shows it collected.
    let receipt: string;
    if (payment.offer.quote) {
      // Kept unwrapped once readable, refused or not, so history shows it like any other.
      kept = readReceiptValue(received.receipt);
      receipt = await checkStipendexReceipt(deps, wallet, payment, kept, received);
    } else {
      receipt = checkX402Settlement(wallet, payment, received.receipt);
    }
    await deps.db.payments.update(payment.id, {
      receipt,
      ...served,
      updatedAt: deps.now(),
      checkAt: deps.now(),
    });
    return { state: payment.state, held: false };
  } catch (error) {
    const waited = deps.now() - received.receivedAt;
    if (isPaymentError(error, "descriptor-unavailable") && waited < DESCRIPTOR_WAIT_MS) {
      const retry = Math.min(Math.max(waited, DESCRIPTOR_RETRY_MS.least), DESCRIPTOR_RETRY_MS.most);
      return hold(deps, payment, received, deps.now() + retry);
    }
    const reason = `Receipt rejected: ${errorText(error)}`;
    const updated = await advancePayment(
      deps.db,
      payment.id,
      { state: "failed", reason, receipt: kept, ...served },
      deps.now(),
    );
    return { state: updated.state, held: false };
  }
}

/** Keeps a receipt as it arrived, to be filed at `checkAt` (or at unlock). */
async function hold(
  deps: ReceiptDeps,
  payment: PaymentRecord,
  received: Received,
  checkAt: number,
): Promise<Filed> {
  await deps.db.payments.update(payment.id, {
    heldReceipt: received,
    updatedAt: deps.now(),
    checkAt,
  });
  return { state: payment.state, held: true };
}

async function checkStipendexReceipt(
  deps: ReceiptDeps,
  wallet: PayingWallet,
  payment: PaymentRecord,
  jws: string,
  received: Received,
): Promise<string> {
  const quote = payment.offer.quote;
  if (!quote || !payment.proof) throw unknownPayment(payment.id);
  const proofHash = await objectHash(payment.proof);
  const verify = async (refresh: boolean) =>
    verifyReceipt(jws, {
      descriptor: await deps.descriptors.get(payment.receiver, refresh ? { refresh } : {}),
      quoteHash: quote.hash,
      proofHash,
      walletId: wallet.walletId,
      settlement: {
        network: payment.network,
        asset: payment.asset,
        amount: payment.amount,
        payer: wallet.address,
      },
      // Judged when it arrived: a wallet locked for a day does not make a valid Receipt too old.
      now: new Date(received.receivedAt),
    });
  // A key rotated since the descriptor was cached: fetched again, once (envelope.md section 7).
  const verified = await verify(false).catch((error: unknown) => {
    if (!isProtocolError(error, "key-not-in-descriptor")) throw error;
    return verify(true);
  });
  assertResultServed(verified.claims.resultHash, received.resultHash);
  // "settled" or "accepted" (settlement pending): the chain says which it is.
  return jws;
}

/** A Receipt's `resultHash`, where it gives one, is the hash of the result the page was served. */
export function assertResultServed(claimed: string | undefined, served: string | undefined): void {
  if (claimed !== undefined && served !== undefined && claimed !== served) {
    throw new PaymentError(
      "receipt-result-mismatch",
      `the Receipt's resultHash ${claimed} is not the hash of the result served (${served})`,
    );
  }
}

function checkX402Settlement(
  wallet: PayingWallet,
  payment: PaymentRecord,
  receipt: unknown,
): string {
  const decoded =
    typeof receipt === "string" ? decodeBase64Json(receipt, "payment response header") : receipt;
  const settlement = readSettleResponse(decoded);
  if (!settlement.success) {
    throw new PaymentError(
      "settlement-failed",
      `Settlement of payment ${payment.id} failed: ${settlement.errorReason ?? "no reason given"}`,
    );
  }
  if (
    settlement.payer !== undefined &&
    settlement.payer.toLowerCase() !== wallet.address.toLowerCase()
  ) {
    throw new PaymentError(
      "settlement-wrong-payer",
      `the settle response names payer ${settlement.payer}, not this wallet (${wallet.address})`,
    );
  }
  if (!sameNetwork(settlement.network, payment.network)) {
    throw new PaymentError(
      "settlement-wrong-network",
      `the settle response names network ${JSON.stringify(settlement.network)}, not the payment's (${payment.network})`,
    );
  }
  if (settlement.amount !== undefined && BigInt(settlement.amount) !== BigInt(payment.amount)) {
    throw new PaymentError(
      "settlement-wrong-amount",
      `the settle response names amount ${settlement.amount}, not the payment's (${payment.amount})`,
    );
  }
  return JSON.stringify(settlement);
}

/** Whether an x402 network name (v1's "base-sepolia" or CAIP-2) is the payment's CAIP-2 network. */
function sameNetwork(named: string, network: string): boolean {
  try {
    return resolveNetwork(named).caip2 === network;
  } catch {
    return false;
  }
}

function isNoReceipt(receipt: unknown): boolean {
  return receipt == null || (typeof receipt === "string" && receipt.trim() === "");
}
