import { getAddress } from "viem";
import type { ApprovalWarning, PendingApproval } from "../messages";
import type { Offer, PaymentOption } from "../protocol/offer";
import { formatAmount } from "../protocol/rails/amount";
import type { Network } from "../protocol/rails/networks";
import { canHoldBudget } from "../wallet/budget-origin";
import { resolveCharge } from "../wallet/limits";
import type { PolicyDecision } from "../wallet/policy";
import type { PolicySettings } from "../wallet/policy-settings";
import { isFrame } from "./engine-parts";
import type { ServerContext } from "./server-context";
import { shownText } from "./shown-text";
import { shownArguments } from "./tool-arguments";
import type { ToolCall } from "./tool-call";

/** Everything the confirmation window shows about one request, gathered by the engine. */
export interface ApprovalViewInput {
  id: string;
  kind: PendingApproval["kind"];
  createdAt: number;
  caller: { origin: string; topOrigin?: string; frameId?: number };
  offer: Offer;
  option: PaymentOption;
  network: Network;
  settings: PolicySettings;
  decision: PolicyDecision;
  server: ServerContext;
  /** From the history: first payment to this receiver, unusually large, and the like. */
  historyWarnings: readonly ApprovalWarning[];
  /** The trust registry that lists the receiver, when one does. */
  registry?: string;
  /** The token's spendable balance, when the wallet could read it. */
  available?: bigint;
  /** MCP: the tools/call being paid for, when the wallet was given it (its arguments may be absent). */
  call?: ToolCall;
}

/** What the confirmation window shows of a request, but whether the wallet is locked (known when it is listed). */
export type ApprovalView = Omit<PendingApproval, "needsUnlock">;

/**
 * Characters of a price's description the window is sent: an x402 price's is
 * whatever its server (or the page) wrote, and storage.session keeps every
 * waiting request (red-team review: 46 KB descriptions on hundreds of requests
 * slowed every change of the queue to seconds).
 */
export const KEPT_DESCRIPTION_CHARS = 2000;

function shownDescription(
  description: string,
): Pick<ApprovalView, "description" | "descriptionOmitted"> {
  const { text, omitted } = shownText(description, KEPT_DESCRIPTION_CHARS);
  return { description: text, ...(omitted > 0 ? { descriptionOmitted: omitted } : {}) };
}

/** What the confirmation window is sent for one request: plain facts, amounts formatted for display. */
export function approvalView(input: ApprovalViewInput): ApprovalView {
  const { offer, option, caller, server, network } = input;
  const charge = resolveCharge(input.settings, option);
  const { hint } = server;
  return {
    id: input.id,
    kind: input.kind,
    createdAt: input.createdAt,
    origin: caller.origin,
    ...(caller.topOrigin !== undefined && (caller.topOrigin !== caller.origin || isFrame(caller))
      ? { topOrigin: caller.topOrigin }
      : {}),
    ...(canHoldBudget(caller.origin)
      ? {}
      : {
          alwaysAllowBlocked: `${caller.origin} is not a secure (https) site: it cannot be given an automatic budget`,
        }),
    ...(input.decision.rule === "origin-new-payee" ? { approvesPayee: true as const } : {}),
    // Asked about what the policy approves only while the wallet cannot sign.
    ...(input.decision.action === "auto" ? { paidOnUnlock: true as const } : {}),
    protocol: offer.protocol,
    receiver: {
      id: shownReceiverId(offer.receiver),
      verified: offer.quote !== undefined,
      ...(offer.receiverName === undefined ? {} : { name: offer.receiverName }),
      ...(input.registry ? { registry: input.registry } : {}),
      ...(offer.claimedBy !== undefined ? { claimedBy: offer.claimedBy } : {}),
    },
    payTo: option.payTo,
    ...shownDescription(offer.description),
    resource:
      offer.resource.kind === "http"
        ? {
            ...offer.resource,
            // An HTTP price names its address only: the call is the page's word (the window says so).
            ...(input.call?.tool === undefined
              ? {}
              : {
                  call: {
                    tool: input.call.tool,
                    // None passed on (too long): said so, not shown as a call without any.
                    ...(input.call.arguments === undefined
                      ? {}
                      : { arguments: shownArguments(input.call.arguments) }),
                  },
                }),
          }
        : {
            kind: "mcp",
            server: offer.resource.server,
            tool: offer.resource.tool,
            // What the tool is asked to do: the person approves the call, not only its price.
            ...(input.call
              ? { arguments: shownArguments(input.call.arguments) }
              : { argumentsUnknown: true as const }),
            ...(offer.quote === undefined ? { unsigned: true as const } : {}),
          },
    amount: {
      atomic: option.amount.toString(),
      decimals: option.decimals,
      symbol: option.symbol,
      formatted: formatAmount(option.amount, option.decimals),
      network: option.network,
      networkName: network.label,
      testnet: network.testnet,
    },
    currency: charge.ok ? charge.currency : option.symbol,
    // An x402 price states no total: its amount is all there is.
    ...(offer.displayTotal ? { total: offer.displayTotal } : {}),
    remaining: input.decision.remaining.map(({ micro, ...limit }) => ({
      ...limit,
      micro: micro.toString(),
    })),
    ...(input.available === undefined
      ? {}
      : {
          balance: {
            available: input.available.toString(),
            after: (input.available - option.amount).toString(),
          },
        }),
    warnings: [
      ...input.historyWarnings,
      ...serverWarnings(offer, server),
      ...(input.available !== undefined && input.available < option.amount
        ? (["insufficient-balance"] as const)
        : []),
    ],
    ...(hint
      ? {
          priceHint: {
            estimate: hint.estimate,
            ...(hint.model === undefined ? {} : { model: hint.model }),
          },
        }
      : {}),
    ...(server.report?.stipendexPayments
      ? { declaredPayments: server.report.stipendexPayments }
      : {}),
    ...defaultsShown(offer, option),
    ...(offer.quote ? { expiresAt: offer.quote.expiresAt * 1000 } : {}),
    collectableForSeconds: option.maxTimeoutSeconds,
  };
}

/**
 * Payable all the same, but worth a look: a signed price that did not verify beside the
 * unsigned one asked, a price above its tool's hint, a server that never declared payments.
 */
function serverWarnings(offer: Offer, server: ServerContext): ApprovalWarning[] {
  const warnings: ApprovalWarning[] = [];
  if (offer.quoteRefused !== undefined) warnings.push("signed-price-refused");
  if (offer.priceInToolText) warnings.push("price-in-tool-text");
  if (server.againstHint === "above") warnings.push("above-price-hint");
  if (offer.protocol === "stipendex" && server.mcp && !server.report?.stipendexPayments) {
    warnings.push("server-did-not-declare-payments");
  }
  return warnings;
}

/** The defaults the wallet applied to this price, for the window's details. */
function defaultsShown(offer: Offer, option: PaymentOption): Pick<PendingApproval, "defaults"> {
  const defaults = [...(offer.defaults ?? []), ...(option.defaults ?? [])];
  return defaults.length > 0 ? { defaults } : {};
}

/**
 * A receiver's id as the window shows it: an x402 account (kept in lower case)
 * with its address checksummed, as the pay-to address beside it is written,
 * so the two read alike; a Stipendex receiver's URL as it is.
 */
function shownReceiverId(receiver: string): string {
  const account = /^(eip155:\d+):(0x[0-9a-fA-F]{40})$/.exec(receiver);
  return account ? `${account[1]}:${getAddress(account[2] as string)}` : receiver;
}
