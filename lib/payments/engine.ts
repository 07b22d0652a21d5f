import type { PaymentRecord } from "../db/schema";
import type { ElicitParams, ElicitResult, PaymentAnswer, PayParams } from "../messages";
import { isWalletError } from "../wallet/errors";
import { advancePayment, recordQuote, recordRefusal, takeElicited } from "../wallet/ledger";
import { obtainConsent, withdrawnReason } from "./consent";
import { elicit } from "./elicit";
import {
  type Caller,
  chooseOption,
  type EngineDeps,
  EngineParts,
  elicitedKey,
  requestKeyOf,
} from "./engine-parts";
import { noWallet, PaymentError } from "./errors";
import { bindPayee } from "./payee";
import { readChallenge } from "./read-challenge";
import { payAutomatically, signApproved } from "./sign-approved";
import { answerFor } from "./sign-payment";
import { type ToolCall, toolCall } from "./tool-call";
import { Withdrawals } from "./withdrawals";

/**
 * The payment engine: verify → decide (auto, ask, refuse) → confirm → sign
 * and charge atomically. Every step is recorded in the ledger, and a request
 * asked again (a relay retrying after the worker restarted) resumes where it
 * was instead of starting over: one Quote, one signature.
 */
/** How many requests withdrawn before they arrived the engine remembers (a page aborting many at once). */
const WITHDRAWN_KEPT = 256;

export class PaymentEngine {
  private readonly parts: EngineParts;
  /** Requests their pages gave up, by requestKey: never signed, never asked about. */
  private readonly withdrawn = new Withdrawals(WITHDRAWN_KEPT);

  constructor(deps: EngineDeps) {
    this.parts = new EngineParts(deps);
  }

  private get deps(): EngineDeps {
    return this.parts.deps;
  }

  pay(params: PayParams, caller: Caller): Promise<PaymentAnswer> {
    const requestKey = requestKeyOf(caller, params.requestId);
    return this.withdrawn.during(requestKey, () => this.payRequest(params, caller, requestKey));
  }

  private async payRequest(
    params: PayParams,
    caller: Caller,
    requestKey: string,
  ): Promise<PaymentAnswer> {
    const known = () => this.paymentFor(requestKey);
    const call = toolCall(params.challenge);
    if (!(await this.deps.hasWallet())) throw noWallet();
    let read: Awaited<ReturnType<typeof readChallenge>>;
    try {
      read = await readChallenge(params.challenge, this.deps.challenge, caller.origin);
    } catch (error) {
      // Asked again (the relay lost the answer) after the price stopped being valid: same answer.
      const asked = await known();
      if (asked) return this.proceed(asked, caller, call);
      throw error;
    }
    const settings = await this.deps.settings();
    const option = chooseOption(settings, read.offer);
    const offer = bindPayee(read.offer, option);
    const recorded = {
      origin: caller.origin,
      receiver: offer.receiver,
      offer,
      option,
      ...(call?.tool === undefined ? {} : { describedTool: call.tool }),
    };
    const automatic = this.withdrawn.has(requestKey)
      ? undefined
      : await payAutomatically(this.parts, { ...recorded, requestKey }, settings, caller);
    if (automatic) return automatic;
    const asked = await known();
    if (asked) return this.proceed(asked, caller, call);
    const elicited = offer.quote
      ? await takeElicited(this.deps.db, elicitedKey(caller, offer.quote.hash), requestKey)
      : undefined;
    if (elicited) return this.proceed(elicited, caller, call);
    this.parts.assertMayRecord(caller.origin);
    let payment: PaymentRecord;
    try {
      payment = await recordQuote(this.deps.db, { ...recorded, requestKey }, this.deps.now());
    } catch (error) {
      if (!isWalletError(error, "duplicate-quote")) throw error;
      const reason = `Replayed quote: ${error.message}`;
      this.parts.endedUnpaid(caller.origin);
      await recordRefusal(this.deps.db, recorded, reason, this.deps.now());
      throw new PaymentError("unreadable-challenge", reason);
    }
    return this.proceed(payment, caller, call);
  }

  /** The payment the ledger holds for a page's request, if any. */
  private paymentFor(requestKey: string): Promise<PaymentRecord | undefined> {
    return this.deps.db.payments.where("requestKey").equals(requestKey).first();
  }

  /**
   * Moves a payment on from whatever state it was left in; `call` is shown if
   * the person is asked. A budget's approval whose charge the site's budget
   * then refuses (a payment made at the same time spent it since the policy
   * looked) goes through consent `again` once: the policy then sees the budget
   * spent and asks the person, or refuses.
   */
  private async proceed(
    payment: PaymentRecord,
    caller: Caller,
    call: ToolCall | undefined,
    again = true,
  ): Promise<PaymentAnswer> {
    switch (payment.state) {
      case "signed":
      case "settled":
        return { paymentId: payment.id, ...answerFor(payment.offer, payment.proof ?? "") };
      case "declined":
        throw userDeclined(payment.reason);
      case "refused":
      case "failed":
      case "expired":
        throw new PaymentError("policy-refused", payment.reason ?? `Payment ${payment.state}`, {
          rule: payment.state,
        });
      case "approved":
        return signApproved(this.parts, payment);
      case "quoted":
        break;
    }
    if (payment.requestKey !== undefined && this.withdrawn.has(payment.requestKey)) {
      const reason = withdrawnReason(caller.origin);
      await this.parts.endUnpaid(caller.origin, payment.id, { state: "declined", reason });
      throw userDeclined(reason);
    }
    const given = await obtainConsent(this.parts, payment, caller, "payment", call);
    if (given.outcome === "refused") {
      throw new PaymentError("policy-refused", given.reason, { rule: given.rule });
    }
    if (given.outcome === "declined") throw userDeclined(given.reason);
    if (given.approvedBy === "policy") {
      const answer = await signApproved(this.parts, payment, {
        confirmation: given.confirmation,
        askIfOverSiteBudget: again,
      });
      return answer ?? this.proceed(payment, caller, call, false);
    }
    const approved = await advancePayment(
      this.deps.db,
      payment.id,
      { state: "approved", confirmation: given.confirmation, approvedBy: given.approvedBy },
      this.deps.now(),
    );
    return signApproved(this.parts, approved);
  }

  /**
   * The page gave up the request it asked to pay for, or to confirm (its fetch
   * or XHR was aborted, its server cancelled the elicitation): a decision
   * still waiting for the person is withdrawn, declined with nothing signed;
   * one not asked for yet is declined when it would be. Once the person (or a
   * budget) has decided, nothing changes.
   */
  async withdraw(requestId: string, caller: Caller): Promise<void> {
    const requestKey = requestKeyOf(caller, requestId);
    this.withdrawn.add(requestKey);
    const asked = await this.paymentFor(requestKey);
    if (asked?.state === "quoted") await this.deps.approvals.withdraw(asked.id);
  }

  /**
   * An MCP `elicitation/create` carrying a Quote: the person confirms in the
   * wallet's window, or the site's budget answers for them (see elicit.ts).
   */
  elicit(params: ElicitParams, caller: Caller): Promise<ElicitResult> {
    const requestKey =
      params.requestId === undefined ? undefined : requestKeyOf(caller, params.requestId);
    return this.withdrawn.during(requestKey, () =>
      elicit(this.parts, params, caller, (key) => this.withdrawn.has(key)),
    );
  }

  /**
   * Whether a request for `payment` is being worked on now: its page is still
   * there, waiting (a relay that sends it again after an extension update, say).
   */
  inHand(payment: Pick<PaymentRecord, "requestKey">): boolean {
    return payment.requestKey !== undefined && this.withdrawn.working(payment.requestKey);
  }

  /** Charges changed outside the engine (one was given back): the sums it keeps in memory are stale. */
  chargesChanged(): void {
    this.parts.spend.forget();
  }
}

/** The person (or the closed confirmation window) said no; `reason` as recorded, when it was. */
function userDeclined(reason = "You declined the payment"): PaymentError {
  return new PaymentError("user-declined", reason);
}
