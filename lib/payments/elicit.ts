import type { PaymentRecord } from "../db/schema";
import type { ElicitParams, ElicitResult } from "../messages";
import type { Offer } from "../protocol/offer";
import { isOverSiteBudgetAlone, isWalletError } from "../wallet/errors";
import { advancePayment, approveAndCharge, recordQuote } from "../wallet/ledger";
import { decide, obtainConsent, serverContextOf, withdrawnReason } from "./consent";
import {
  assertConfirmationSchema,
  CONFIRMATION_FIELD,
  confirmationFits,
  elicitationSchemaError,
} from "./elicitation-schema";
import {
  type Caller,
  chooseOption,
  type EngineParts,
  elicitedKey,
  requestKeyOf,
} from "./engine-parts";
import { isPaymentError, PaymentError } from "./errors";
import { readQuote } from "./read-challenge";

/**
 * An MCP `elicitation/create` carrying a Quote: the person confirms in the
 * wallet's window, or the site's budget answers for them. Either way the
 * answer is a payment in the ledger, charged like one, that only this
 * caller's payment of this Quote can use. One its caller withdrew
 * (`withdrawn`, by its requestKey) is declined without asking.
 */
export async function elicit(
  parts: EngineParts,
  params: ElicitParams,
  caller: Caller,
  withdrawn: (requestKey: string) => boolean,
): Promise<ElicitResult> {
  const meta = params.params._meta ?? {};
  // Asked during a tools/call: the Quote must be for that very call (tool and arguments).
  const inFlight = params.call && {
    kind: "mcp" as const,
    server: params.server,
    tool: params.call.tool,
    arguments: params.call.arguments,
  };
  const { offer } = await readQuote(
    meta["stipendex/quote"],
    inFlight,
    "mcp",
    parts.deps.challenge,
    caller.origin,
  );
  if (offer.resource.kind !== "mcp" || offer.resource.server !== params.server) {
    throw new PaymentError(
      "unreadable-challenge",
      `The elicited Quote is for ${JSON.stringify(offer.resource)}, not a tool of ${params.server}`,
    );
  }
  if (!offer.quote) {
    throw new PaymentError("unreadable-challenge", "An elicitation must carry a Stipendex Quote");
  }
  const elicitedBy = elicitedKey(caller, offer.quote.hash);
  // The key a withdrawal finds it by while the person decides (a payment taking it later sets its own).
  const requestKey =
    params.requestId === undefined ? undefined : requestKeyOf(caller, params.requestId);
  const answering = parts.elicitations;
  const joined = answering.get(elicitedBy);
  if (joined) return joined;
  const answer = answerOnce(parts, params, caller, withdrawn, {
    offer,
    elicitedBy,
    requestKey,
  }).finally(() => answering.delete(elicitedBy));
  answering.set(elicitedBy, answer);
  return answer;
}

/** Records the elicitation (or finds it, asked before) and answers it. */
async function answerOnce(
  parts: EngineParts,
  params: ElicitParams,
  caller: Caller,
  withdrawn: (requestKey: string) => boolean,
  { offer, elicitedBy, requestKey }: { offer: Offer; elicitedBy: string; requestKey?: string },
): Promise<ElicitResult> {
  const settings = await parts.deps.settings();
  const option = chooseOption(settings, offer);
  // Held back only when it would add a history entry the person is asked about: one asked
  // again is already recorded, and one the site's budget answers alone is not refused.
  const recorded = await parts.deps.db.payments.where("elicitedBy").equals(elicitedBy).first();
  if (recorded === undefined) {
    const server = await serverContextOf(parts, offer, settings, option, caller.origin);
    const outsideCall = params.call === undefined;
    const decision = await decide(parts, settings, offer, option, caller, server, outsideCall);
    if (decision.action !== "auto") parts.assertMayRecord(caller.origin);
  }
  const payment = await recordQuote(
    parts.deps.db,
    {
      origin: caller.origin,
      receiver: offer.receiver,
      offer,
      option,
      elicitedBy,
      ...(requestKey === undefined ? {} : { requestKey }),
    },
    parts.deps.now(),
  );
  if (requestKey !== undefined && withdrawn(requestKey) && payment.state === "quoted") {
    const reason = withdrawnReason(caller.origin);
    await parts.endUnpaid(caller.origin, payment.id, { state: "declined", reason });
    return { action: "cancel" };
  }
  const schema = params.params.requestedSchema;
  try {
    assertConfirmationSchema(schema);
  } catch (error) {
    if (!isPaymentError(error, "elicitation-schema") || payment.state !== "quoted") throw error;
    await parts.endUnpaid(caller.origin, payment.id, { state: "refused", reason: error.message });
    return { action: "decline" };
  }
  return answerElicitation(parts, payment, caller, params);
}

async function answerElicitation(
  parts: EngineParts,
  payment: PaymentRecord,
  caller: Caller,
  params: ElicitParams,
): Promise<ElicitResult> {
  if (payment.state !== "quoted") {
    return payment.state === "approved" && payment.confirmation
      ? { action: "accept", content: { [CONFIRMATION_FIELD]: payment.confirmation } }
      : { action: "decline" };
  }
  return consentAndCharge(parts, payment, caller, params, true);
}

/**
 * The consent step and the charge of an elicitation's answer. A budget's
 * approval whose charge the budget refuses (an answer made at the same time
 * spent it since the policy looked) goes through consent `again` once: the
 * policy then sees the budget spent and asks the person, or refuses.
 */
async function consentAndCharge(
  parts: EngineParts,
  payment: PaymentRecord,
  caller: Caller,
  params: ElicitParams,
  again: boolean,
): Promise<ElicitResult> {
  const schema = params.params.requestedSchema;
  const given = await obtainConsent(parts, payment, caller, "elicitation", params.call);
  if (given.outcome !== "approved") return { action: "decline" };
  const { quote } = payment.offer;
  if (quote && quote.expiresAt <= parts.seconds()) {
    // Expired while the person decided: no payment could use the Confirmation, so none is given.
    const reason = `Quote ${quote.id} expired before it was confirmed`;
    await advancePayment(parts.deps.db, payment.id, { state: "expired", reason }, parts.deps.now());
    return { action: "decline" };
  }
  const fits = confirmationFits(schema, given.confirmation);
  if (fits !== true) {
    const reason = elicitationSchemaError(fits).message;
    await parts.endUnpaid(caller.origin, payment.id, { state: "refused", reason });
    return { action: "decline" };
  }
  try {
    await approveAndCharge(parts.deps.db, {
      paymentId: payment.id,
      settings: await parts.deps.settings(),
      confirmation: given.confirmation,
      approvedBy: given.approvedBy,
      now: parts.deps.now(),
    });
  } catch (error) {
    if (isOverSiteBudgetAlone(error) && given.approvedBy === "policy") {
      parts.spend.forget();
      if (again) return consentAndCharge(parts, payment, caller, params, false);
      // Spent again at once, since the second look: refused as any other overrun is.
      await parts.endUnpaid(caller.origin, payment.id, { state: "refused", reason: error.message });
    }
    if (isWalletError(error, "budget-exhausted", "charge-not-allowed")) {
      return { action: "decline" };
    }
    throw error;
  } finally {
    parts.spend.forget();
  }
  return { action: "accept", content: { [CONFIRMATION_FIELD]: given.confirmation } };
}
