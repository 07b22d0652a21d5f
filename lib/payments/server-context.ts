import type { McpServerReport } from "../messages";
import type { Offer, PaymentOption } from "../protocol/offer";
import { resolveCharge } from "../wallet/limits";
import type { HintComparison } from "../wallet/policy";
import type { PolicySettings } from "../wallet/policy-settings";
import { compareToHint, type PriceHint, priceHint } from "./price-hint";

/** What an MCP server told the wallet about the tool being paid for. */
export interface ServerContext {
  mcp: boolean;
  report?: McpServerReport;
  hint?: PriceHint;
  /** MCP only: how the price stands against the tool's announced one. */
  againstHint?: HintComparison;
}

export const NOT_MCP: ServerContext = { mcp: false };

/**
 * For an MCP tool's price: what its server declared (`report`, as pages
 * reported it), the tool's announced price, and whether this price is above it.
 */
export function serverContext(
  report: McpServerReport | undefined,
  offer: Offer,
  option: PaymentOption,
  settings: PolicySettings,
): ServerContext {
  if (offer.resource.kind !== "mcp") return NOT_MCP;
  const hint = priceHint(report, offer.resource.tool);
  const charge = resolveCharge(settings, option);
  return {
    mcp: true,
    ...(report ? { report } : {}),
    ...(hint ? { hint } : {}),
    againstHint: charge.ok ? compareToHint(hint, charge.micro, charge.currency) : "none",
  };
}
