import type { PaymentRecord, WalletDb } from "../db/schema";
import type {
  ApprovalWarning,
  DecideParams,
  ElicitParams,
  ElicitResult,
  PaymentAnswer,
  PayParams,
  PendingApproval,
} from "../messages";
import { walletSigner } from "../protocol/envelope/wallet-key";
import type { Offer, PaymentOption } from "../protocol/offer";
import { formatAmount } from "../protocol/rails/amount";
import type { Registry } from "../protocol/rails/registry";
import { spentForPayment } from "../wallet/budget-sums";
import { DuplicateQuoteError } from "../wallet/errors";
import type { KeyValueStore } from "../wallet/key-value-store";
import type { UnlockedWallet } from "../wallet/keyring";
import { advancePayment, chargeAndSign, recordQuote, recordRefusal } from "../wallet/ledger";
import { resolveCharge } from "../wallet/limits";
import { decidePayment, type PolicyDecision } from "../wallet/policy";
import type { PolicySettings } from "../wallet/policy-settings";
import type { ApprovalQueue } from "./approvals";
import { confirmOffer, type Decision, shownTotal } from "./confirmation";
import {
  NoWalletError,
  PolicyRefusedError,
  UnknownPaymentError,
  UnreadableChallengeError,
  UserDeclinedError,
  WalletLockedError,
} from "./errors";
import { type ChallengeContext, readChallenge, readQuote } from "./read-challenge";
import { describeRemaining } from "./remaining";
import { answerFor, signPayment } from "./sign-payment";
import { registryListing, type TrustedRegistry } from "./trust";
import { paymentWarnings } from "./warnings";

/**
 * storage.session, one key per entry (no shared map to rewrite, so concurrent
 * requests cannot lose each other's entries): which payment each page request
 * became, so a re-ask resumes it; and Confirmations given by elicitation, by
 * Quote hash, until the payment uses them.
 */
export const REQUEST_KEY_PREFIX = "stipendex.request:";
export const ELICITED_KEY_PREFIX = "stipendex.elicited:";

export interface EngineDeps {
  db: WalletDb;
  session: KeyValueStore;
  challenge: ChallengeContext;
  registry: Registry;
  approvals: ApprovalQueue;
  settings(): Promise<PolicySettings>;
  saveSettings(settings: PolicySettings): Promise<void>;
  /** The unlocked wallet, or undefined while locked. */
  wallet(): Promise<UnlockedWallet | undefined>;
  hasWallet(): Promise<boolean>;
  /** Registries the person trusts, and how to fetch a receiver's entry in one. */
  trustedRegistries(): Promise<readonly TrustedRegistry[]>;
  fetch: typeof fetch;
  now(): number;
}

export interface Caller {
  /** The page's origin as the browser reported it. */
  origin: string;
  tabId: number | undefined;
}

/**
 * The payment engine: verify → decide (auto, ask, refuse) → confirm → sign
 * and charge atomically. Every step is recorded in the ledger, and a request
 * asked again (a relay retrying after the worker restarted) resumes where it
 * was instead of starting over: one Quote, one signature.
 */
export class PaymentEngine {
  constructor(private readonly deps: EngineDeps) {}

  async pay(params: PayParams, caller: Caller): Promise<PaymentAnswer> {
    const requestKey = `${caller.origin} ${caller.tabId ?? "-"} ${params.requestId}`;
    const known = (await this.deps.session.get(REQUEST_KEY_PREFIX + requestKey)) as
      | string
      | undefined;
    if (known !== undefined) {
      const payment = await this.deps.db.payments.get(known);
      if (payment) return this.proceed(payment, caller);
    }
    if (!(await this.deps.hasWallet())) throw new NoWalletError();
    const { offer } = await readChallenge(params.challenge, this.deps.challenge);
    const settings = await this.deps.settings();
    const option = chooseOption(settings, offer);
    let payment: PaymentRecord;
    try {
      payment = await recordQuote(
        this.deps.db,
        { origin: caller.origin, receiver: offer.receiver, offer, option },
        this.deps.now(),
      );
    } catch (error) {
      if (!(error instanceof DuplicateQuoteError)) throw error;
      const reason = `Replayed quote: ${error.message}`;
      await recordRefusal(
        this.deps.db,
        { origin: caller.origin, receiver: offer.receiver, offer, option },
        reason,
        this.deps.now(),
      );
      throw new UnreadableChallengeError(reason);
    }
    await this.deps.session.set(REQUEST_KEY_PREFIX + requestKey, payment.id);
    return this.proceed(payment, caller);
  }

  /** An MCP `elicitation/create` carrying a Quote: the person confirms in the wallet's window. */
  async elicit(params: ElicitParams, caller: Caller): Promise<ElicitResult> {
    const meta = params.params._meta ?? {};
    const { offer } = await readQuote(
      meta["stipendex/quote"],
      undefined,
      "mcp",
      this.deps.challenge,
    );
    if (offer.resource.kind !== "mcp" || offer.resource.server !== params.server) {
      throw new UnreadableChallengeError(
        `The elicited Quote is for ${JSON.stringify(offer.resource)}, not a tool of ${params.server}`,
      );
    }
    const hash = offerHashOf(offer);
    const given = await this.elicited(hash);
    if (given) return { action: "accept", content: { confirmation: given } };
    const settings = await this.deps.settings();
    const option = chooseOption(settings, offer);
    const decision = await this.policy(settings, offer, option, caller.origin);
    if (decision.action === "refuse") return { action: "decline" };
    const remaining = describeRemaining(decision.remaining);
    const approvalId = `elicit:${caller.origin}:${hash}`;
    // Under a budget the person set, the wallet answers for them, as it would pay a -32402.
    let confirm = await this.autoApproval(decision, remaining);
    if (!confirm) {
      const answer = await this.askPerson(
        approvalId,
        "elicitation",
        offer,
        option,
        caller.origin,
        decision,
      );
      await this.deps.approvals.consume(approvalId);
      if (answer.decision === "decline") return { action: "decline" };
      confirm = { decision: "approve", mode: "elicitation", humanPresent: true, remaining };
    }
    const confirmation = await this.confirmIfUnlocked(offer, option, caller.origin, confirm);
    if (!confirmation) throw new WalletLockedError("Unlock the wallet to confirm");
    await this.deps.session.set(ELICITED_KEY_PREFIX + hash, confirmation);
    return { action: "accept", content: { confirmation } };
  }

  /** Moves a payment on from whatever state it was left in. */
  private async proceed(payment: PaymentRecord, caller: Caller): Promise<PaymentAnswer> {
    const offer = payment.offer;
    const option = optionOf(payment);
    switch (payment.state) {
      case "signed":
      case "settled":
        return { paymentId: payment.id, ...answerFor(offer, payment.proof ?? "") };
      case "declined":
        throw new UserDeclinedError(payment.reason);
      case "refused":
      case "failed":
      case "expired":
        throw new PolicyRefusedError(payment.state, payment.reason ?? `Payment ${payment.state}`);
      case "approved":
        return this.sign(payment, offer, option);
      case "quoted":
        break;
    }
    const settings = await this.deps.settings();
    const decision = await this.policy(settings, offer, option, caller.origin);
    if (decision.action === "refuse") {
      await advancePayment(this.deps.db, payment.id, { state: "refused", reason: decision.reason });
      throw new PolicyRefusedError(decision.rule, decision.reason);
    }
    const remaining = describeRemaining(decision.remaining);
    const elicited = offer.quote ? await this.elicited(offer.quote.hash) : undefined;
    if (elicited && offer.quote) {
      const answer = await this.approveAndSign(payment, offer, option, elicited);
      await this.deps.session.remove(ELICITED_KEY_PREFIX + offer.quote.hash);
      return answer;
    }
    let confirm = await this.autoApproval(decision, remaining);
    if (!confirm) {
      const answer = await this.askPerson(
        payment.id,
        "payment",
        offer,
        option,
        caller.origin,
        decision,
      );
      if (answer.decision === "decline") {
        const confirmation = await this.confirmIfUnlocked(offer, option, caller.origin, {
          decision: "decline",
          mode: "popup",
          humanPresent: true,
          remaining,
        });
        await advancePayment(this.deps.db, payment.id, {
          state: "declined",
          reason: "You declined the payment",
          ...(confirmation ? { confirmation } : {}),
        });
        await this.deps.approvals.consume(payment.id);
        throw new UserDeclinedError();
      }
      if (answer.alwaysAllowPerDay !== undefined) {
        await this.allowPerDay(settings, caller.origin, option, BigInt(answer.alwaysAllowPerDay));
      }
      confirm = { decision: "approve", mode: "popup", humanPresent: true, remaining };
    }
    const confirmation = await this.confirmIfUnlocked(offer, option, caller.origin, confirm);
    if (!confirmation) {
      throw new WalletLockedError("The wallet locked before the payment was signed");
    }
    const answer = await this.approveAndSign(payment, offer, option, confirmation);
    await this.deps.approvals.consume(payment.id);
    return answer;
  }

  private async approveAndSign(
    payment: PaymentRecord,
    offer: Offer,
    option: PaymentOption,
    confirmation: string,
  ): Promise<PaymentAnswer> {
    const approved = await advancePayment(this.deps.db, payment.id, {
      state: "approved",
      confirmation,
    });
    return this.sign(approved, offer, option);
  }

  private async sign(
    payment: PaymentRecord,
    offer: Offer,
    option: PaymentOption,
  ): Promise<PaymentAnswer> {
    if (offer.quote && offer.quote.expiresAt <= this.seconds()) {
      await advancePayment(this.deps.db, payment.id, {
        state: "expired",
        reason: `Quote ${offer.quote.id} expired before it was signed`,
      });
      throw new PolicyRefusedError(
        "expired",
        `Quote ${offer.quote.id} expired before it was signed`,
      );
    }
    const wallet = await this.deps.wallet();
    if (!wallet) throw new WalletLockedError();
    const settings = await this.deps.settings();
    let answer: Omit<PaymentAnswer, "paymentId"> | undefined;
    const signer = await this.signer(wallet);
    const signed = await chargeAndSign(this.deps.db, {
      paymentId: payment.id,
      settings,
      now: this.deps.now(),
      sign: async () => {
        const result = await signPayment(
          offer,
          option,
          payment.confirmation ?? "",
          wallet.evmAccount,
          signer,
          this.seconds(),
        );
        answer = result.answer;
        return result.proof;
      },
    }).catch((error: unknown) => {
      throw new PolicyRefusedError(
        "budget",
        error instanceof Error ? error.message : String(error),
      );
    });
    return { paymentId: signed.id, ...(answer ?? answerFor(offer, signed.proof ?? "")) };
  }

  private async askPerson(
    approvalId: string,
    kind: PendingApproval["kind"],
    offer: Offer,
    option: PaymentOption,
    origin: string,
    decision: PolicyDecision,
  ): Promise<DecideParams> {
    const network = this.deps.registry.network(option.network);
    const charge = resolveCharge(await this.deps.settings(), option);
    const warnings: ApprovalWarning[] = await paymentWarnings(this.deps.db, {
      origin,
      receiver: offer.receiver,
      verified: offer.quote !== undefined,
      amount: option.amount,
      testnet: network.testnet,
    });
    const registry = offer.quote
      ? await registryListing(
          await this.deps.challenge.descriptors.get(offer.receiver),
          await this.deps.trustedRegistries(),
          this.deps.fetch,
          new Date(this.deps.now()),
        )
      : undefined;
    return this.deps.approvals.ask({
      id: approvalId,
      kind,
      createdAt: this.deps.now(),
      origin,
      protocol: offer.protocol,
      receiver: {
        id: offer.receiver,
        verified: offer.quote !== undefined,
        ...(registry ? { registry } : {}),
      },
      payTo: option.payTo,
      description: offer.description,
      resource:
        offer.resource.kind === "http"
          ? offer.resource
          : { kind: "mcp", server: offer.resource.server, tool: offer.resource.tool },
      amount: {
        atomic: option.amount.toString(),
        decimals: option.decimals,
        symbol: option.symbol,
        formatted: formatAmount(option.amount, option.decimals),
        network: option.network,
        networkName: network.names[0] ?? option.network,
        testnet: network.testnet,
      },
      currency: charge.ok ? charge.currency : option.symbol,
      total: shownTotal(offer, option),
      remaining: describeRemaining(decision.remaining),
      warnings,
      ...(offer.quote ? { expiresAt: offer.quote.expiresAt * 1000 } : {}),
    });
  }

  private async policy(
    settings: PolicySettings,
    offer: Offer,
    option: PaymentOption,
    origin: string,
  ): Promise<PolicyDecision> {
    const now = this.deps.now();
    const spent = await spentForPayment(this.deps.db, settings, origin, option, now);
    return decidePayment(settings, { origin, receiver: offer.receiver, option, spent, now });
  }

  /** "Always allow up to … per day for this site": a daily budget that auto-approves up to it. */
  private async allowPerDay(
    settings: PolicySettings,
    origin: string,
    option: PaymentOption,
    perDay: bigint,
  ): Promise<void> {
    const charge = resolveCharge(settings, option);
    if (!charge.ok || perDay <= 0n) return;
    await this.deps.saveSettings({
      ...settings,
      origins: {
        ...settings.origins,
        [origin]: {
          currency: charge.currency,
          amount: perDay,
          period: "day",
          autoApproveUpTo: perDay,
          perCallMax: perDay,
        },
      },
    });
  }

  /** The policy's own approval when it auto-approves and the wallet can sign; else the person decides. */
  private async autoApproval(
    decision: PolicyDecision,
    remaining: Record<string, string>,
  ): Promise<Decision | undefined> {
    if (decision.action !== "auto" || !(await this.deps.wallet())) return undefined;
    return {
      decision: "approve",
      mode: "policy",
      rule: decision.rule,
      humanPresent: false,
      remaining,
    };
  }

  /** The wallet's signed Confirmation of a decision, or undefined while locked. */
  private async confirmIfUnlocked(
    offer: Offer,
    option: PaymentOption,
    origin: string,
    decision: Decision,
  ): Promise<string | undefined> {
    const wallet = await this.deps.wallet();
    if (!wallet) return undefined;
    return confirmOffer(offer, option, origin, decision, await this.signer(wallet), this.seconds());
  }

  private async signer(wallet: UnlockedWallet) {
    return walletSigner({
      privateKey: wallet.signingKey.privateKey,
      publicKey: wallet.signingKey.publicKey,
    });
  }

  private seconds(): number {
    return Math.floor(this.deps.now() / 1000);
  }

  private async elicited(quoteHash: string): Promise<string | undefined> {
    return (await this.deps.session.get(ELICITED_KEY_PREFIX + quoteHash)) as string | undefined;
  }
}

/** The first option the user's settings allow, else the first (the policy then says why not). */
export function chooseOption(settings: PolicySettings, offer: Offer): PaymentOption {
  const allowed = offer.options.find((option) => resolveCharge(settings, option).ok);
  const chosen = allowed ?? offer.options[0];
  if (!chosen) throw new UnreadableChallengeError("The price offers no way to pay");
  return chosen;
}

/** The option a recorded payment chose (the offer keeps them all). */
function optionOf(payment: PaymentRecord): PaymentOption {
  const option = payment.offer.options.find(
    (o) =>
      o.network === payment.network &&
      o.asset.toLowerCase() === payment.asset.toLowerCase() &&
      o.payTo.toLowerCase() === payment.payTo.toLowerCase() &&
      o.amount.toString() === payment.amount,
  );
  if (!option) throw new UnknownPaymentError(payment.id);
  return option;
}

function offerHashOf(offer: Offer): string {
  if (!offer.quote)
    throw new UnreadableChallengeError("An elicitation must carry a Stipendex Quote");
  return offer.quote.hash;
}
