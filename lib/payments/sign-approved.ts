import type { PaymentRecord } from "../db/schema";
import type { PaymentAnswer } from "../messages";
import { type AutoSignatures, recordAutoPayment } from "../wallet/auto-payment";
import { isOverSiteBudgetAlone, isWalletError } from "../wallet/errors";
import {
  advancePayment,
  type ChargeRequest,
  chargeAndSign,
  type NewPayment,
  releaseUnusedApproval,
} from "../wallet/ledger";
import type { PolicySettings } from "../wallet/policy-settings";
import { confirmOffer } from "./confirmation";
import { automaticDecision, decide, serverContextOf } from "./consent";
import { type Caller, type EngineParts, elicitedKey, optionOf } from "./engine-parts";
import { isPaymentError, PaymentError, walletLocked } from "./errors";
import { describeRemaining } from "./remaining";
import { answerFor, signPayment } from "./sign-payment";

/** A budget's approval on the asking path, not yet in the ledger (see ChargeRequest). */
type BudgetApproval = NonNullable<ChargeRequest["budgetApproval"]>;

/**
 * Signs a payment someone approved and charges it in the same transaction; a
 * Quote that expired while the person decided is recorded as expired,
 * unsigned. The person's approval is in the ledger already ("approved"); a
 * budget's, on the asking path, is `budgetApproval`, stored with the signature
 * (see chargeAndSign): with `askIfOverSiteBudget`, undefined when a payment
 * made at the same time spent the site's budget (nothing written, still quoted).
 */
export async function signApproved(
  parts: EngineParts,
  payment: PaymentRecord,
): Promise<PaymentAnswer>;
export async function signApproved(
  parts: EngineParts,
  payment: PaymentRecord,
  budgetApproval: BudgetApproval,
): Promise<PaymentAnswer | undefined>;
export async function signApproved(
  parts: EngineParts,
  payment: PaymentRecord,
  budgetApproval?: BudgetApproval,
): Promise<PaymentAnswer | undefined> {
  const { offer } = payment;
  const option = optionOf(payment);
  if (offer.quote && offer.quote.expiresAt <= parts.seconds()) {
    const reason = `Quote ${offer.quote.id} expired before it was signed`;
    if (payment.charge === undefined) {
      await advancePayment(
        parts.deps.db,
        payment.id,
        { state: "expired", reason },
        parts.deps.now(),
      );
    } else if (await releaseUnusedApproval(parts.deps.db, payment.id, parts.deps.now(), reason)) {
      // Charged when it was approved (an elicitation's): the charge goes back with it.
      parts.spend.forget();
    }
    throw new PaymentError("policy-refused", reason, { rule: "expired" });
  }
  const wallet = await parts.deps.wallet();
  if (!wallet) throw walletLocked();
  const settings = await parts.deps.settings();
  let answer: Omit<PaymentAnswer, "paymentId"> | undefined;
  const signer = await parts.signer(wallet);
  const signed = await chargeAndSign(parts.deps.db, {
    paymentId: payment.id,
    settings,
    now: parts.deps.now(),
    ...(budgetApproval ? { budgetApproval } : {}),
    sign: async () => {
      // A lock since the wallet was fetched (the auto-lock alarm) wins: nothing is signed or charged.
      if (!parts.deps.walletOpen(wallet)) throw walletLocked();
      const result = await signPayment(
        offer,
        option,
        budgetApproval?.confirmation ?? payment.confirmation ?? "",
        wallet.evmAccount,
        signer,
        parts.seconds(),
      );
      // Or one that landed while it signed: the signature is dropped, never sent.
      if (!parts.deps.walletOpen(wallet)) throw walletLocked();
      answer = result.answer;
      return result.proof;
    },
  })
    .catch((error: unknown) => {
      if (budgetApproval?.askIfOverSiteBudget && isOverSiteBudgetAlone(error)) return undefined;
      // A cap that refuses the charge is the policy's refusal; anything else (a Quote another
      // request paid, a signer failure) is not a budget and keeps its own code.
      if (!isWalletError(error, "budget-exhausted", "charge-not-allowed")) throw error;
      throw new PaymentError("policy-refused", error.message, { rule: "budget" });
    })
    .finally(() => parts.spend.forget());
  if (signed === undefined) return undefined;
  parts.deps.balances.spent(option.network, option.asset, option.amount);
  return { paymentId: signed.id, ...(answer ?? answerFor(offer, signed.proof ?? "")) };
}

/**
 * The hot path: a payment the policy approves on its own is recorded,
 * checked against the caps, signed and charged in one transaction (signed
 * while the database answers its reads; nothing leaves before it commits).
 * Undefined when the person must be asked, the wallet is locked, or the
 * ledger already knows the request, its elicitation or its Quote: the usual
 * path takes over.
 */
export async function payAutomatically(
  parts: EngineParts,
  payment: NewPayment & { requestKey: string },
  settings: PolicySettings,
  caller: Caller,
): Promise<PaymentAnswer | undefined> {
  const { offer, option } = payment;
  const wallet = await parts.deps.wallet();
  if (!wallet || (offer.quote && offer.quote.expiresAt <= parts.seconds())) return undefined;
  const server = await serverContextOf(parts, offer, settings, option, caller.origin);
  const decision = await decide(parts, settings, offer, option, caller, server);
  const confirm = await automaticDecision(parts, decision, describeRemaining(decision.remaining));
  if (!confirm) return undefined;
  const signer = await parts.signer(wallet);
  // A lock since the wallet was fetched wins: the usual path asks instead.
  if (!parts.deps.walletOpen(wallet)) return undefined;
  const seconds = parts.seconds();
  const sign = async (): Promise<AutoSignatures> => {
    const confirming = confirmOffer(offer, option, caller.origin, confirm, signer, seconds);
    const signed = await signPayment(offer, option, confirming, wallet.evmAccount, signer, seconds);
    // Or one that landed while it signed: the signatures are dropped, never stored or sent.
    if (!parts.deps.walletOpen(wallet)) throw walletLocked();
    return { confirmation: await confirming, proof: signed.proof };
  };
  const now = parts.deps.now();
  const remembered = parts.remembered();
  const outcome = await recordAutoPayment(parts.deps.db, {
    payment,
    sign,
    settings,
    // Only a tool call's Quote can have been elicited (elicit.ts): an HTTP one needs no lookup.
    ...(offer.quote && offer.resource.kind === "mcp"
      ? { elicitedBy: elicitedKey(caller, offer.quote.hash) }
      : {}),
    now,
    ...(remembered === undefined
      ? {}
      : {
          remembered: {
            sums: await parts.spend.spentFor(settings, caller.origin, option, now),
            payments: remembered,
          },
        }),
  }).catch((error: unknown) => {
    // Locked while it signed: nothing was stored; the usual path finds the wallet locked.
    if (isPaymentError(error, "wallet-locked")) return undefined;
    throw error;
  });
  if (outcome === undefined || outcome.kind === "known") return undefined;
  if (outcome.kind === "over-site-budget") {
    parts.spend.forget();
    return undefined;
  }
  if (outcome.kind === "refused") {
    parts.spend.forget();
    throw new PaymentError("policy-refused", outcome.error.message, { rule: "budget" });
  }
  parts.spend.committed(outcome.sums);
  parts.counted(outcome.payments);
  parts.deps.balances.spent(option.network, option.asset, option.amount);
  return { paymentId: outcome.payment.id, ...answerFor(offer, outcome.payment.proof ?? "") };
}
