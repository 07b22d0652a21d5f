import { canHoldBudget } from "./budget-origin";
import {
  budgetExhaustedReason,
  type CapRule,
  type ChargeOption,
  type ChargeRefusalRule,
  capLimits,
  exceededCap,
  type RemainingLimit,
  remainingAfter,
  resolveCharge,
} from "./limits";
import { formatMicro } from "./micro";
import type { PolicySettings } from "./policy-settings";
import { isAllowed, isDenied, type ReceiverNames } from "./receiver-names";

export type PolicyRule =
  | "receiver-denied"
  | ChargeRefusalRule
  | "origin-per-call-max"
  | CapRule
  | "origin-no-budget"
  | "receiver-not-allowed"
  | "origin-above-auto-approve"
  | "origin-above-price-hint"
  | "origin-no-price-hint"
  | "insufficient-balance"
  | "origin-framed"
  | "origin-new-payee"
  | "quote-refused"
  | "elicitation-outside-call"
  | "price-in-tool-text"
  | "origin-auto-approve";

/**
 * How an MCP tool's price stands against the price its tools/list announced;
 * "none" when it announced none, or none that reads as an amount in the price's currency.
 */
export type HintComparison = "within" | "above" | "none";

export interface PolicyInput {
  /** The agent page's origin as the browser reported it. */
  origin: string;
  /** The tab's top-level origin, when the browser says it: another site's when `origin` is framed. */
  topOrigin?: string;
  /**
   * Whether the request came from a frame, not the tab's page: a frame of the
   * same site may sit inside another site's frame (site → other → site).
   */
  inFrame?: boolean;
  receiver: string;
  /** Every name the receiver goes by, matched against the allow and deny lists; else `receiver` alone. */
  receiverNames?: ReceiverNames;
  option: ChargeOption;
  /** Running sums by sum key (see limits.ts); absent keys count as 0. */
  spent: ReadonlyMap<string, bigint>;
  now: number;
  /** MCP: how the price stands against what its tool's tools/list announced; absent for any other price. */
  againstHint?: HintComparison;
  /** The token's spendable balance (atomic units), when the wallet could read it. */
  available?: bigint;
  /**
   * A desktop app's price nobody signed (x402), to an account the person has
   * not approved it to pay (lib/wallet/approved-payees.ts).
   */
  newPayee?: boolean;
  /**
   * Why the receiver's signed price (a Stipendex Quote) beside this unsigned
   * x402 one was refused (envelope.md §6): then only the person approves it.
   */
  quoteRefused?: string;
  /**
   * A confirmation an MCP server asked for (elicitation) on no tools/call the
   * page made, or none the wallet was told of: nothing binds it to a call.
   */
  outsideCall?: boolean;
  /** An x402 MCP price read from a tool answer's text alone (Offer.priceInToolText). */
  priceInToolText?: boolean;
}

export interface PolicyDecision {
  action: "auto" | "ask" | "refuse";
  rule: PolicyRule;
  reason: string;
  /**
   * Each running limit in micro units: after this payment when it may go ahead,
   * as it stands without it when refused.
   */
  remaining: RemainingLimit[];
}

/**
 * Decides a payment. Checks run from hardest to softest, and the first that fires is
 * the `rule`: refusals (deny list, network/asset, per-call maximum, global caps), then
 * reasons to ask (the site's budget used up, no budget for this origin, receiver
 * outside a non-empty allow list, above the auto-approve threshold, framed by
 * another site, a desktop app's new payee); only a payment that passes all of them is "auto". Opaque and
 * plain-http (non-loopback) origins never have a budget, so they are always asked.
 */
export function decidePayment(settings: PolicySettings, input: PolicyInput): PolicyDecision {
  const { origin, receiver, spent, now } = input;
  const refuse = (
    rule: PolicyRule,
    reason: string,
    remaining: RemainingLimit[] = [],
  ): PolicyDecision => ({
    action: "refuse",
    rule,
    reason,
    remaining,
  });

  const names = input.receiverNames ?? { receiver };
  if (isDenied(settings.receivers.deny, names)) {
    return refuse("receiver-denied", `receiver ${receiver} is on your deny list`);
  }
  const charge = resolveCharge(settings, input.option);
  if (!charge.ok) return refuse(charge.rule, charge.reason);
  const { currency, micro } = charge;
  const limits = capLimits(settings, origin, currency, now);
  const budget = canHoldBudget(origin) ? settings.origins[origin] : undefined;
  const hasBudget = budget !== undefined && budget.currency === currency;
  const price = formatMicro(micro, currency);

  if (hasBudget && micro > budget.perCallMax) {
    return refuse(
      "origin-per-call-max",
      `${price} is above the per-call maximum of ${formatMicro(budget.perCallMax, currency)} for ${origin}`,
      remainingAfter(limits, spent, 0n),
    );
  }
  // Global caps bind everyone; a site's used-up budget only means the person is asked again.
  const overrun = exceededCap(
    limits.filter((limit) => limit.rule !== "origin-budget"),
    spent,
    micro,
  );
  if (overrun !== undefined) {
    return refuse(
      overrun.rule,
      budgetExhaustedReason(overrun, spent, micro),
      remainingAfter(limits, spent, 0n),
    );
  }

  const remaining = remainingAfter(limits, spent, micro);
  const ask = (rule: PolicyRule, reason: string): PolicyDecision => ({
    action: "ask",
    rule,
    reason,
    remaining,
  });
  // A signed price that failed its checks (expired, forged, for another call) beside an unsigned
  // one: whatever was tampered with or went stale, no budget pays its stand-in unasked.
  if (input.quoteRefused !== undefined) {
    return ask(
      "quote-refused",
      `the receiver's signed price was refused (${input.quoteRefused}): the unsigned x402 price beside it is paid only when you approve it`,
    );
  }
  // envelope.md §3 asks for one "during a tools/call": one outside any can be asked again and
  // again for calls never made (red-team review: it drained a site's budget, no window).
  if (input.outsideCall === true) {
    return ask(
      "elicitation-outside-call",
      `the server asks you to confirm a price outside any tool call ${origin} made: only you can confirm it`,
    );
  }
  // The text a tool answers with may be another site's (a fetched page, a relayed 402): read as
  // this server's price, it would pay whoever that text names (red-team review).
  if (input.priceInToolText === true) {
    return ask(
      "price-in-tool-text",
      "this price came as text in the tool's answer, which may be text the tool passed on from another site: only you can approve whom it pays",
    );
  }
  const siteBudgetUsed = exceededCap(limits, spent, micro);
  if (siteBudgetUsed !== undefined) {
    return ask(siteBudgetUsed.rule, budgetExhaustedReason(siteBudgetUsed, spent, micro));
  }
  if (!hasBudget) {
    return ask(
      "origin-no-budget",
      `${origin} has no ${currency} budget yet: ask before paying ${price}`,
    );
  }
  const { allow } = settings.receivers;
  if (allow.length > 0 && !isAllowed(allow, names)) {
    return ask("receiver-not-allowed", `receiver ${receiver} is not on your allow list`);
  }
  if (budget.withinPriceHint && input.againstHint === "above") {
    return ask(
      "origin-above-price-hint",
      `${price} is above the price the server announced for this tool: ${origin} auto-approves only up to it`,
    );
  }
  // Only at or below an announced price: a price with none to compare (an HTTP 402, an MCP tool
  // priced by one, a tool that announced none or none in this currency) is asked about.
  if (budget.withinPriceHint && input.againstHint !== "within") {
    return ask(
      "origin-no-price-hint",
      `no price in ${currency} was announced for this ${input.againstHint === undefined ? "call" : "tool"}: ${origin} auto-approves only at or below one`,
    );
  }
  if (micro > budget.autoApproveUpTo) {
    return ask(
      "origin-above-auto-approve",
      `${price} is above the ${formatMicro(budget.autoApproveUpTo, currency)} ${origin} may spend without asking`,
    );
  }
  if (input.available !== undefined && input.available < input.option.amount) {
    return ask(
      "insufficient-balance",
      `the paying address holds less than ${price} of this token: the receiver would refuse it`,
    );
  }
  // The budget was given to the site as the page itself: a page framing it can drive it.
  if (input.inFrame === true || (input.topOrigin !== undefined && input.topOrigin !== origin)) {
    const top = input.topOrigin === "null" ? "a page with no web address" : input.topOrigin;
    return ask(
      "origin-framed",
      `${origin} is inside ${top === undefined || top === origin ? "a frame" : top}: its budget pays without asking only where it is the page itself`,
    );
  }
  // Any local process can speak as a desktop app: whom an unsigned price pays is its word alone.
  if (input.newPayee === true) {
    return ask(
      "origin-new-payee",
      `${receiver} has not been paid by this desktop app with your approval: its budget pays an address without asking only once you have approved one payment to it`,
    );
  }
  return {
    action: "auto",
    rule: "origin-auto-approve",
    reason: `${price} is within what ${origin} may spend without asking`,
    remaining,
  };
}
