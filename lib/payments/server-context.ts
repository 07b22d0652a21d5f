import type { McpServerReport } from "../messages";
import type { Offer, PaymentOption } from "../protocol/offer";
import { resolveCharge } from "../wallet/limits";
import type { PolicySettings } from "../wallet/policy-settings";
import { aboveHint, type PriceHint, priceHint } from "./price-hint";

/** What an MCP server told the wallet about the tool being paid for. */
export interface ServerContext {
  mcp: boolean;
  report?: McpServerReport;
  hint?: PriceHint;
  aboveHint: boolean;
}

export const NOT_MCP: ServerContext = { mcp: false, aboveHint: false };

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
    aboveHint: charge.ok && aboveHint(hint, charge.micro, charge.currency),
  };
}
