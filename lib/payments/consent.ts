import type { PaymentRecord } from "../db/schema";
import type { PendingApproval } from "../messages";
import type { Offer, PaymentOption } from "../protocol/offer";
import { canHoldBudget, proxiedOrigin } from "../wallet/budget-origin";
import { type ChargeRefusalRule, resolveCharge } from "../wallet/limits";
import { decidePayment, type PolicyDecision, type PolicyRule } from "../wallet/policy";
import type { PolicySettings } from "../wallet/policy-settings";
import { receiverNames } from "../wallet/receiver-names";
import { type ApprovalView, approvalView } from "./approval-view";
import type { ApprovalDecision, Requester } from "./approvals";
import { confirmOffer, type Decision } from "./confirmation";
import { type Caller, type EngineParts, isFrame, optionOf } from "./engine-parts";
import { isPaymentError, PaymentError } from "./errors";
import { payeeAccount } from "./payee";
import { describeRemaining } from "./remaining";
import { NOT_MCP, type ServerContext, serverContext } from "./server-context";
import { boundCall, type ToolCall } from "./tool-call";
import { registryListing } from "./trust";
import { paymentWarnings } from "./warnings";

/** Why a payment its caller gave up before the person decided is declined: a page's, or a desktop app's. */
export function withdrawnReason(origin: string): string {
  const who = proxiedOrigin(origin) === undefined ? "The site" : "The desktop app";
  return `${who} withdrew its request before you decided`;
}

/** What the consent step ended in; refusals and declines are already in the ledger. */
export type Consent =
  | { outcome: "approved"; confirmation: string; approvedBy: "person" | "policy" }
  | { outcome: "declined"; reason: string }
  | { outcome: "refused"; rule: string; reason: string };

/**
 * The one consent step of paying and of elicitation: the policy refuses,
 * approves on the person's behalf under a budget they set, or asks them.
 */
export async function obtainConsent(
  parts: EngineParts,
  payment: PaymentRecord,
  caller: Caller,
  kind: PendingApproval["kind"],
  call?: ToolCall,
): Promise<Consent> {
  const { offer } = payment;
  const option = optionOf(payment);
  const settings = await parts.deps.settings();
  const server = await serverContextOf(parts, offer, settings, option, caller.origin);
  const outsideCall = kind === "elicitation" && call === undefined;
  const decision = await decide(parts, settings, offer, option, caller, server, outsideCall);
  if (decision.action === "refuse") {
    const reason = withUnreadOptions(decision, offer);
    await parts.endUnpaid(caller.origin, payment.id, { state: "refused", reason });
    return { outcome: "refused", rule: decision.rule, reason };
  }
  const remaining = describeRemaining(decision.remaining);
  const mode = kind === "elicitation" ? "elicitation" : "popup";
  let confirm = await automaticDecision(parts, decision, remaining);
  let approvedBy: "person" | "policy" = "policy";
  if (!confirm) {
    const requester = {
      id: payment.id,
      origin: caller.origin,
      ...(caller.tabId === undefined ? {} : { tabId: caller.tabId }),
      ...(caller.byPerson ? { byPerson: true as const } : {}),
    };
    const shown = await boundCall(offer, call);
    const expiresAt = offer.quote && offer.quote.expiresAt * 1000;
    const describe = () =>
      describeRequest(parts, { id: payment.id, kind }, offer, option, caller, {
        settings,
        decision,
        server,
        ...(shown ? { call: shown } : {}),
      });
    // Unlocked: the policy looks again, at what its budgets hold now.
    const covered = async () => {
      const current = await parts.deps.settings();
      const context = await serverContextOf(parts, offer, current, option, caller.origin);
      const again = await decide(parts, current, offer, option, caller, context, outsideCall);
      return automaticDecision(parts, again, describeRemaining(again.remaining));
    };
    const answer = await askPerson(parts, requester, expiresAt, describe, covered).catch(
      async (error: unknown) => {
        if (isPaymentError(error, "too-many-waiting")) {
          await parts.endUnpaid(caller.origin, payment.id, {
            state: "refused",
            reason: error.message,
          });
        }
        throw error;
      },
    );
    if ("covered" in answer) {
      confirm = answer.covered;
    } else {
      const ended = await personsAnswer(parts, payment, caller, answer, { mode, remaining });
      if (ended) return ended;
      confirm = { decision: "approve", mode, humanPresent: true, remaining };
      approvedBy = "person";
    }
  }
  const confirmation = await confirmIfUnlocked(parts, offer, option, caller.origin, confirm);
  if (!confirmation) {
    throw new PaymentError("wallet-locked", "The wallet locked before the payment was confirmed");
  }
  // Only the person's answer was kept for a restarted worker; a budget's leaves nothing behind,
  // and takes out of the window what an earlier worker asked the person about this payment.
  if (approvedBy === "person") await parts.deps.approvals.consume(payment.id);
  else await parts.deps.approvals.drop(payment.id);
  return { outcome: "approved", confirmation, approvedBy };
}

/**
 * Acts on the person's answer (or its page's withdrawal, or its price's end): what the
 * consent step ended in when it ended unpaid, undefined when they approved.
 */
async function personsAnswer(
  parts: EngineParts,
  payment: PaymentRecord,
  caller: Caller,
  answer: ApprovalDecision,
  { mode, remaining }: { mode: Decision["mode"]; remaining: Record<string, string> },
): Promise<Consent | undefined> {
  const { offer } = payment;
  const option = optionOf(payment);
  if (answer.expired) {
    const reason = "The price expired before you decided";
    await parts.endUnpaid(caller.origin, payment.id, { state: "expired", reason });
    await parts.deps.approvals.consume(payment.id);
    return { outcome: "refused", rule: "expired", reason };
  }
  if (answer.decision === "decline") {
    // A withdrawn request was nobody's decision: no Confirmation says the person declined it.
    const confirmation = answer.withdrawn
      ? undefined
      : await confirmIfUnlocked(parts, offer, option, caller.origin, {
          decision: "decline",
          mode,
          humanPresent: true,
          remaining,
        });
    const reason = answer.withdrawn ? withdrawnReason(caller.origin) : "You declined the payment";
    await parts.endUnpaid(caller.origin, payment.id, {
      state: "declined",
      reason,
      ...(confirmation ? { confirmation } : {}),
    });
    await parts.deps.approvals.consume(payment.id);
    return { outcome: "declined", reason };
  }
  if (answer.alwaysAllowPerDay !== undefined) {
    await allowPerDay(parts, caller.origin, option, BigInt(answer.alwaysAllowPerDay));
  }
  const payee = unsignedPayeeOf(offer, option, caller.origin);
  if (payee !== undefined) await parts.deps.payees.approve(caller.origin, payee);
  return undefined;
}

/** Refusals of the chosen option itself, which another option of the price might have avoided. */
const OPTION_REFUSALS: ReadonlySet<PolicyRule> = new Set<ChargeRefusalRule>([
  "network-not-allowed",
  "asset-not-allowed",
  "asset-decimals-mismatch",
]);

/**
 * A refusal's reason, with why the price's other options could not be read when the one
 * chosen is refused for what it is (black-box review: a 2-day timeout on the payable option
 * read as "network eip155:1 is not among the allowed networks" alone).
 */
function withUnreadOptions(decision: PolicyDecision, offer: Offer): string {
  if (!offer.unread?.length || !OPTION_REFUSALS.has(decision.rule)) return decision.reason;
  return `${decision.reason}; the price's other options could not be read: ${offer.unread.join("; ")}`;
}

/**
 * Asks the person about approval `id` of `origin`; the window opens while `describe` puts
 * together what it shows. At `expiresAt` (ms), its price's end, the question is taken back:
 * nothing can be paid after it, and the page waits for an answer. Asked only because the
 * wallet was locked, it is looked at again at unlock: `covered` gives the policy's own
 * approval if its budget still covers it, and the request then leaves the window unless
 * the person decided it first.
 */
async function askPerson(
  parts: EngineParts,
  requester: Requester,
  expiresAt: number | undefined,
  describe: () => Promise<ApprovalView>,
  covered: () => Promise<Decision | undefined>,
): Promise<ApprovalDecision | { covered: Decision }> {
  const { approvals } = parts.deps;
  void approvals.prepareWindow(requester).catch(() => undefined);
  let view: ApprovalView;
  try {
    view = await describe();
  } catch (error) {
    await approvals.closeIfEmpty().catch(() => undefined);
    throw error;
  }
  const { id: _id, origin: _origin, ...asked } = requester;
  const expiry =
    expiresAt === undefined
      ? undefined
      : setTimeout(
          () => void approvals.withdraw(requester.id, "expired").catch(() => undefined),
          Math.max(expiresAt - parts.deps.now(), 0),
        );
  try {
    let answer = approvals.ask({ ...view, ...asked });
    // Unlocked while the request was put together: it is looked at again, as at the unlock.
    if (view.paidOnUnlock && (await parts.deps.wallet())) await approvals.unlocked();
    for (;;) {
      const answered = await answer;
      if (!("unlocked" in answered)) return answered;
      const decision = await covered();
      if (decision && (await approvals.leave(requester.id))) return { covered: decision };
      answer = approvals.ask({ ...view, ...asked });
    }
  } finally {
    clearTimeout(expiry);
  }
}

/** What the confirmation window shows of a request (its history, the balance, the registry). */
async function describeRequest(
  parts: EngineParts,
  { id, kind }: { id: string; kind: PendingApproval["kind"] },
  offer: Offer,
  option: PaymentOption,
  caller: Caller,
  context: {
    settings: PolicySettings;
    decision: PolicyDecision;
    server: ServerContext;
    call?: ToolCall;
  },
): Promise<ApprovalView> {
  const network = parts.deps.registry.network(option.network);
  const historyWarnings = await paymentWarnings(parts.deps.db, {
    origin: caller.origin,
    receiver: offer.receiver,
    verified: offer.quote !== undefined,
    amount: option.amount,
    testnet: network.testnet,
  });
  const balance = await parts.deps.balances.current(
    option.network,
    option.asset,
    undefined,
    option.amount,
  );
  const registry = offer.quote
    ? await registryListing(
        await parts.deps.challenge.descriptors.get(offer.receiver, {
          requesterOrigin: caller.origin,
        }),
        await parts.deps.trustedRegistries(),
        parts.deps.fetch,
        new Date(parts.deps.now()),
      )
    : undefined;
  return approvalView({
    id,
    kind,
    createdAt: parts.deps.now(),
    caller,
    offer,
    option,
    network,
    ...context,
    historyWarnings,
    ...(registry ? { registry } : {}),
    ...(balance ? { available: balance.available } : {}),
  });
}

export async function decide(
  parts: EngineParts,
  settings: PolicySettings,
  offer: Offer,
  option: PaymentOption,
  caller: Caller,
  server: ServerContext,
  /** An elicitation that came with no tools/call (PolicyInput.outsideCall). */
  outsideCall = false,
): Promise<PolicyDecision> {
  const now = parts.deps.now();
  const { origin, topOrigin } = caller;
  const payee = unsignedPayeeOf(offer, option, origin);
  const [spent, balance, payeeApproved] = await Promise.all([
    parts.spend.spentFor(settings, origin, option, now),
    parts.deps.balances.current(option.network, option.asset),
    payee === undefined ? true : parts.deps.payees.approved(origin, payee),
  ]);
  return decidePayment(settings, {
    origin,
    ...(topOrigin === undefined ? {} : { topOrigin }),
    inFrame: isFrame(caller),
    receiver: offer.receiver,
    receiverNames: receiverNames(offer, option),
    option,
    spent,
    now,
    ...(server.againstHint === undefined ? {} : { againstHint: server.againstHint }),
    ...(balance ? { available: balance.available } : {}),
    ...(payeeApproved ? {} : { newPayee: true }),
    ...(offer.quoteRefused === undefined ? {} : { quoteRefused: offer.quoteRefused }),
    ...(outsideCall ? { outsideCall } : {}),
    ...(offer.priceInToolText ? { priceInToolText: true } : {}),
  });
}

/**
 * The account a desktop app's unsigned (x402) price pays, which the person
 * approves it to pay once (lib/wallet/approved-payees.ts); undefined for a
 * page's price, or a Quote its receiver signed.
 */
function unsignedPayeeOf(offer: Offer, option: PaymentOption, origin: string): string | undefined {
  if (offer.quote || proxiedOrigin(origin) === undefined) return undefined;
  return payeeAccount(option);
}

/** For an MCP tool's price: what its server declared and the tool's announced price, as `origin` heard. */
export async function serverContextOf(
  parts: EngineParts,
  offer: Offer,
  settings: PolicySettings,
  option: PaymentOption,
  origin: string,
): Promise<ServerContext> {
  if (offer.resource.kind !== "mcp") return NOT_MCP;
  const report = await parts.deps.serverReport(origin, offer.resource.server);
  return serverContext(report, offer, option, settings);
}

/**
 * "Always allow up to … per day for this site": a daily budget that
 * auto-approves up to it, written into the settings as they are now (not as
 * they were when the window opened). Opaque and plain-http origins cannot
 * hold one.
 */
async function allowPerDay(
  parts: EngineParts,
  origin: string,
  option: PaymentOption,
  perDay: bigint,
): Promise<void> {
  if (perDay <= 0n || !canHoldBudget(origin)) return;
  await parts.deps.updateSettings((settings) => {
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
export async function automaticDecision(
  parts: EngineParts,
  decision: PolicyDecision,
  remaining: Record<string, string>,
): Promise<Decision | undefined> {
  if (decision.action !== "auto" || !(await parts.deps.wallet())) return undefined;
  return {
    decision: "approve",
    mode: "policy",
    rule: decision.rule,
    humanPresent: false,
    remaining,
  };
}

/** The wallet's signed Confirmation of a decision, or undefined while locked. */
export async function confirmIfUnlocked(
  parts: EngineParts,
  offer: Offer,
  option: PaymentOption,
  origin: string,
  decision: Decision,
): Promise<string | undefined> {
  const wallet = await parts.deps.wallet();
  if (!wallet) return undefined;
  const signer = await parts.signer(wallet);
  // A lock that landed while the signer was made: nothing is signed with the keys it closed.
  if (!parts.deps.walletOpen(wallet)) return undefined;
  return confirmOffer(offer, option, origin, decision, signer, parts.seconds());
}
