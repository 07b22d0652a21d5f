import type { PaymentRecord, WalletDb } from "../db/schema";
import type {
  DecideParams,
  ElicitParams,
  ElicitResult,
  McpServerReport,
  PaymentAnswer,
  PayParams,
  PendingApproval,
} from "../messages";
import { type WalletSigner, walletSigner } from "../protocol/envelope/wallet-key";
import type { Offer, PaymentOption } from "../protocol/offer";
import type { Registry } from "../protocol/rails/registry";
import { canHoldBudget } from "../wallet/budget-origin";
import { BudgetExhaustedError, ChargeNotAllowedError, DuplicateQuoteError } from "../wallet/errors";
import type { UnlockedWallet } from "../wallet/keyring";
import {
  advancePayment,
  approveAndCharge,
  chargeAndSign,
  recordAutoPayment,
  recordQuote,
  recordRefusal,
  takeElicited,
} from "../wallet/ledger";
import { resolveCharge } from "../wallet/limits";
import { decidePayment, type PolicyDecision } from "../wallet/policy";
import type { PolicySettings } from "../wallet/policy-settings";
import { SpendMirror } from "../wallet/spend-mirror";
import { approvalView } from "./approval-view";
import type { ApprovalQueue } from "./approvals";
import { confirmOffer, type Decision } from "./confirmation";
import {
  assertConfirmationSchema,
  CONFIRMATION_FIELD,
  confirmationFits,
  ElicitationSchemaError,
} from "./elicitation-schema";
import {
  NoWalletError,
  PolicyRefusedError,
  TooManyWaitingError,
  UnknownPaymentError,
  UnreadableChallengeError,
  UserDeclinedError,
  WalletLockedError,
} from "./errors";
import { bindPayee } from "./payee";
import { type ChallengeContext, readChallenge, readQuote } from "./read-challenge";
import { describeRemaining } from "./remaining";
import { NOT_MCP, type ServerContext, serverContext } from "./server-context";
import { answerFor, signPayment } from "./sign-payment";
import { registryListing, type TrustedRegistry } from "./trust";
import { paymentWarnings } from "./warnings";

export interface EngineDeps {
  db: WalletDb;
  challenge: ChallengeContext;
  registry: Registry;
  approvals: ApprovalQueue;
  settings(): Promise<PolicySettings>;
  /** One read-modify-write of the settings as they are at that moment. */
  updateSettings(change: (settings: PolicySettings) => PolicySettings): Promise<PolicySettings>;
  /** The unlocked wallet, or undefined while locked. */
  wallet(): Promise<UnlockedWallet | undefined>;
  hasWallet(): Promise<boolean>;
  /** What an MCP server declared and hinted (capabilities, tools/list prices), as pages reported it. */
  serverReport(server: string): Promise<McpServerReport | undefined>;
  /** Registries the person trusts, and how to fetch a receiver's entry in one. */
  trustedRegistries(): Promise<readonly TrustedRegistry[]>;
  fetch: typeof fetch;
  now(): number;
}

export interface Caller {
  /** The page's (or frame's) origin as the browser reported it. */
  origin: string;
  tabId: number | undefined;
  frameId?: number;
  /** The origin of the tab's top-level page, when the browser says it. */
  topOrigin?: string;
}

/** What the consent step ended in; refusals and declines are already in the ledger. */
type Consent =
  | { outcome: "approved"; confirmation: string; approvedBy: "person" | "policy" }
  | { outcome: "declined" }
  | { outcome: "refused"; rule: string; reason: string };

/**
 * The payment engine: verify → decide (auto, ask, refuse) → confirm → sign
 * and charge atomically. Every step is recorded in the ledger, and a request
 * asked again (a relay retrying after the worker restarted) resumes where it
 * was instead of starting over: one Quote, one signature.
 */
export class PaymentEngine {
  private readonly signers = new WeakMap<UnlockedWallet, Promise<WalletSigner>>();
  private readonly spend: SpendMirror;

  constructor(private readonly deps: EngineDeps) {
    this.spend = new SpendMirror(deps.db);
  }

  async pay(params: PayParams, caller: Caller): Promise<PaymentAnswer> {
    const requestKey = `${callerKey(caller)} ${params.requestId}`;
    const known = () => this.deps.db.payments.where("requestKey").equals(requestKey).first();
    if (!(await this.deps.hasWallet())) throw new NoWalletError();
    let read: Awaited<ReturnType<typeof readChallenge>>;
    try {
      read = await readChallenge(params.challenge, this.deps.challenge, caller.origin);
    } catch (error) {
      // Asked again (the relay lost the answer) after the price stopped being valid: same answer.
      const asked = await known();
      if (asked) return this.proceed(asked, caller);
      throw error;
    }
    const settings = await this.deps.settings();
    const option = chooseOption(settings, read.offer);
    const offer = bindPayee(read.offer, option);
    const automatic = await this.payAutomatically(offer, option, settings, caller, requestKey);
    if (automatic) return automatic;
    const asked = await known();
    if (asked) return this.proceed(asked, caller);
    const elicited = offer.quote
      ? await takeElicited(this.deps.db, elicitedKey(caller, offer.quote.hash), requestKey)
      : undefined;
    if (elicited) return this.proceed(elicited, caller);
    let payment: PaymentRecord;
    try {
      payment = await recordQuote(
        this.deps.db,
        { origin: caller.origin, receiver: offer.receiver, offer, option, requestKey },
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
    return this.proceed(payment, caller);
  }

  /**
   * The hot path: a payment the policy approves on its own is signed, then
   * recorded, checked against the caps and charged in one transaction.
   * Undefined when the person must be asked, the wallet is locked, or the
   * ledger already knows the request, its elicitation or its Quote: the usual
   * path takes over.
   */
  private async payAutomatically(
    offer: Offer,
    option: PaymentOption,
    settings: PolicySettings,
    caller: Caller,
    requestKey: string,
  ): Promise<PaymentAnswer | undefined> {
    const wallet = await this.deps.wallet();
    if (!wallet || (offer.quote && offer.quote.expiresAt <= this.seconds())) return undefined;
    const server = await this.serverContext(offer, settings, option);
    const decision = await this.policy(settings, offer.receiver, option, caller.origin, server);
    const confirm = await this.autoApproval(decision, describeRemaining(decision.remaining));
    if (!confirm) return undefined;
    const signer = await this.signer(wallet);
    const seconds = this.seconds();
    const confirming = confirmOffer(offer, option, caller.origin, confirm, signer, seconds);
    const signed = await signPayment(offer, option, confirming, wallet.evmAccount, signer, seconds);
    const outcome = await recordAutoPayment(this.deps.db, {
      payment: { origin: caller.origin, receiver: offer.receiver, offer, option, requestKey },
      confirmation: await confirming,
      proof: signed.proof,
      settings,
      ...(offer.quote ? { elicitedBy: elicitedKey(caller, offer.quote.hash) } : {}),
      now: this.deps.now(),
    });
    if (outcome.kind === "known") return undefined;
    if (outcome.kind === "refused") {
      this.spend.forget();
      throw new PolicyRefusedError("budget", outcome.error.message);
    }
    this.spend.committed(outcome.sums);
    return { paymentId: outcome.payment.id, ...signed.answer };
  }

  /**
   * An MCP `elicitation/create` carrying a Quote: the person confirms in the
   * wallet's window, or the site's budget answers for them. Either way the
   * answer is a payment in the ledger, charged like one, that only this
   * caller's payment of this Quote can use.
   */
  async elicit(params: ElicitParams, caller: Caller): Promise<ElicitResult> {
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
      this.deps.challenge,
      caller.origin,
    );
    if (offer.resource.kind !== "mcp" || offer.resource.server !== params.server) {
      throw new UnreadableChallengeError(
        `The elicited Quote is for ${JSON.stringify(offer.resource)}, not a tool of ${params.server}`,
      );
    }
    if (!offer.quote) {
      throw new UnreadableChallengeError("An elicitation must carry a Stipendex Quote");
    }
    const elicitedBy = elicitedKey(caller, offer.quote.hash);
    let payment = await this.deps.db.payments.where("elicitedBy").equals(elicitedBy).first();
    if (!payment) {
      const option = chooseOption(await this.deps.settings(), offer);
      payment = await recordQuote(
        this.deps.db,
        { origin: caller.origin, receiver: offer.receiver, offer, option, elicitedBy },
        this.deps.now(),
      );
    }
    const schema = params.params.requestedSchema;
    try {
      assertConfirmationSchema(schema);
    } catch (error) {
      if (!(error instanceof ElicitationSchemaError) || payment.state !== "quoted") throw error;
      await advancePayment(this.deps.db, payment.id, { state: "refused", reason: error.message });
      return { action: "decline" };
    }
    return this.answerElicitation(payment, caller, schema);
  }

  private async answerElicitation(
    payment: PaymentRecord,
    caller: Caller,
    schema: unknown,
  ): Promise<ElicitResult> {
    if (payment.state !== "quoted") {
      return payment.state === "approved" && payment.confirmation
        ? { action: "accept", content: { [CONFIRMATION_FIELD]: payment.confirmation } }
        : { action: "decline" };
    }
    const consent = await this.consent(payment, caller, "elicitation");
    if (consent.outcome !== "approved") return { action: "decline" };
    const fits = confirmationFits(schema, consent.confirmation);
    if (fits !== true) {
      const reason = new ElicitationSchemaError(fits).message;
      await advancePayment(this.deps.db, payment.id, { state: "refused", reason });
      return { action: "decline" };
    }
    try {
      await approveAndCharge(this.deps.db, {
        paymentId: payment.id,
        settings: await this.deps.settings(),
        confirmation: consent.confirmation,
        approvedBy: consent.approvedBy,
        now: this.deps.now(),
      });
    } catch (error) {
      if (error instanceof BudgetExhaustedError || error instanceof ChargeNotAllowedError) {
        return { action: "decline" };
      }
      throw error;
    } finally {
      this.spend.forget();
    }
    return { action: "accept", content: { [CONFIRMATION_FIELD]: consent.confirmation } };
  }

  /** Moves a payment on from whatever state it was left in. */
  private async proceed(payment: PaymentRecord, caller: Caller): Promise<PaymentAnswer> {
    switch (payment.state) {
      case "signed":
      case "settled":
        return { paymentId: payment.id, ...answerFor(payment.offer, payment.proof ?? "") };
      case "declined":
        throw new UserDeclinedError(payment.reason);
      case "refused":
      case "failed":
      case "expired":
        throw new PolicyRefusedError(payment.state, payment.reason ?? `Payment ${payment.state}`);
      case "approved":
        return this.sign(payment);
      case "quoted":
        break;
    }
    const consent = await this.consent(payment, caller, "payment");
    if (consent.outcome === "refused") throw new PolicyRefusedError(consent.rule, consent.reason);
    if (consent.outcome === "declined") throw new UserDeclinedError();
    const approved = await advancePayment(this.deps.db, payment.id, {
      state: "approved",
      confirmation: consent.confirmation,
      approvedBy: consent.approvedBy,
    });
    return this.sign(approved);
  }

  /**
   * The one consent step of paying and of elicitation: the policy refuses,
   * approves on the person's behalf under a budget they set, or asks them.
   */
  private async consent(
    payment: PaymentRecord,
    caller: Caller,
    kind: PendingApproval["kind"],
  ): Promise<Consent> {
    const { offer } = payment;
    const option = optionOf(payment);
    const settings = await this.deps.settings();
    const server = await this.serverContext(offer, settings, option);
    const decision = await this.policy(settings, payment.receiver, option, caller.origin, server);
    if (decision.action === "refuse") {
      await advancePayment(this.deps.db, payment.id, { state: "refused", reason: decision.reason });
      return { outcome: "refused", rule: decision.rule, reason: decision.reason };
    }
    const remaining = describeRemaining(decision.remaining);
    const mode = kind === "elicitation" ? "elicitation" : "popup";
    let confirm = await this.autoApproval(decision, remaining);
    let approvedBy: "person" | "policy" = "policy";
    if (!confirm) {
      const answer = await this.askPerson({ id: payment.id, kind }, offer, option, caller, {
        settings,
        decision,
        server,
      }).catch(async (error: unknown) => {
        if (error instanceof TooManyWaitingError) {
          await advancePayment(this.deps.db, payment.id, {
            state: "refused",
            reason: error.message,
          });
        }
        throw error;
      });
      if (answer.decision === "decline") {
        const confirmation = await this.confirmIfUnlocked(offer, option, caller.origin, {
          decision: "decline",
          mode,
          humanPresent: true,
          remaining,
        });
        await advancePayment(this.deps.db, payment.id, {
          state: "declined",
          reason: "You declined the payment",
          ...(confirmation ? { confirmation } : {}),
        });
        await this.deps.approvals.consume(payment.id);
        return { outcome: "declined" };
      }
      if (answer.alwaysAllowPerDay !== undefined) {
        await this.allowPerDay(caller.origin, option, BigInt(answer.alwaysAllowPerDay));
      }
      confirm = { decision: "approve", mode, humanPresent: true, remaining };
      approvedBy = "person";
    }
    const confirmation = await this.confirmIfUnlocked(offer, option, caller.origin, confirm);
    if (!confirmation) {
      throw new WalletLockedError("The wallet locked before the payment was confirmed");
    }
    // Only the person's answer was kept for a restarted worker; a budget's leaves nothing behind.
    if (approvedBy === "person") await this.deps.approvals.consume(payment.id);
    return { outcome: "approved", confirmation, approvedBy };
  }

  private async sign(payment: PaymentRecord): Promise<PaymentAnswer> {
    const { offer } = payment;
    const option = optionOf(payment);
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
    })
      .catch((error: unknown) => {
        throw new PolicyRefusedError(
          "budget",
          error instanceof Error ? error.message : String(error),
        );
      })
      .finally(() => this.spend.forget());
    return { paymentId: signed.id, ...(answer ?? answerFor(offer, signed.proof ?? "")) };
  }

  private async askPerson(
    { id, kind }: { id: string; kind: PendingApproval["kind"] },
    offer: Offer,
    option: PaymentOption,
    caller: Caller,
    context: { settings: PolicySettings; decision: PolicyDecision; server: ServerContext },
  ): Promise<DecideParams> {
    const network = this.deps.registry.network(option.network);
    const historyWarnings = await paymentWarnings(this.deps.db, {
      origin: caller.origin,
      receiver: offer.receiver,
      verified: offer.quote !== undefined,
      amount: option.amount,
      testnet: network.testnet,
    });
    const registry = offer.quote
      ? await registryListing(
          await this.deps.challenge.descriptors.get(offer.receiver, {
            requesterOrigin: caller.origin,
          }),
          await this.deps.trustedRegistries(),
          this.deps.fetch,
          new Date(this.deps.now()),
        )
      : undefined;
    return this.deps.approvals.ask(
      approvalView({
        id,
        kind,
        createdAt: this.deps.now(),
        caller,
        offer,
        option,
        network,
        ...context,
        historyWarnings,
        ...(registry ? { registry } : {}),
      }),
    );
  }

  private async policy(
    settings: PolicySettings,
    receiver: string,
    option: PaymentOption,
    origin: string,
    server: ServerContext,
  ): Promise<PolicyDecision> {
    const now = this.deps.now();
    const spent = await this.spend.spentFor(settings, origin, option, now);
    return decidePayment(settings, {
      origin,
      receiver,
      option,
      spent,
      now,
      aboveHint: server.aboveHint,
    });
  }

  /** For an MCP tool's price: what its server declared, and the tool's announced price. */
  private async serverContext(
    offer: Offer,
    settings: PolicySettings,
    option: PaymentOption,
  ): Promise<ServerContext> {
    if (offer.resource.kind !== "mcp") return NOT_MCP;
    const report = await this.deps.serverReport(offer.resource.server);
    return serverContext(report, offer, option, settings);
  }

  /**
   * "Always allow up to … per day for this site": a daily budget that
   * auto-approves up to it, written into the settings as they are now (not as
   * they were when the window opened). Opaque and plain-http origins cannot
   * hold one.
   */
  private async allowPerDay(origin: string, option: PaymentOption, perDay: bigint): Promise<void> {
    if (perDay <= 0n || !canHoldBudget(origin)) return;
    await this.deps.updateSettings((settings) => {
      const charge = resolveCharge(settings, option);
      if (!charge.ok) return settings;
      return {
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
      };
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

  /** The wallet key's JWS signer, built once per unlocked wallet (it exports and hashes the public key). */
  private signer(wallet: UnlockedWallet): Promise<WalletSigner> {
    let signer = this.signers.get(wallet);
    if (!signer) {
      signer = walletSigner({
        privateKey: wallet.signingKey.privateKey,
        publicKey: wallet.signingKey.publicKey,
      });
      this.signers.set(wallet, signer);
    }
    return signer;
  }

  private seconds(): number {
    return Math.floor(this.deps.now() / 1000);
  }
}

/** Who asks, as exactly as the browser tells: one caller's requests and Confirmations are never another's. */
function callerKey(caller: Caller): string {
  return `${caller.origin} ${caller.tabId ?? "-"} ${caller.frameId ?? "-"}`;
}

function elicitedKey(caller: Caller, quoteHash: string): string {
  return `${callerKey(caller)} ${quoteHash}`;
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
