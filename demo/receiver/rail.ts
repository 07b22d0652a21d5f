import type { Address, Caip2 } from "../../lib/protocol/offer";
import { formatAmount } from "../../lib/protocol/rails/amount";

/** How this receiver is paid, without a price: one EIP-3009 token on one chain to one address. */
export interface RailTemplate {
  network: Caip2;
  chainId: number;
  asset: Address;
  decimals: number;
  symbol: string;
  payTo: Address;
  maxTimeoutSeconds: number;
  /** EIP-712 domain of the token contract. */
  eip712: { name: string; version: string };
}

/** A Quote rail (envelope.md §2): shaped like an x402 requirement, amount in atomic units. */
export type QuoteRail = {
  rail: "x402-exact";
  network: Caip2;
  asset: Address;
  amount: string;
  decimals: number;
  symbol: string;
  payTo: Address;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
};

export function quoteRail(template: RailTemplate, amount: bigint): QuoteRail {
  return {
    rail: "x402-exact",
    network: template.network,
    asset: template.asset,
    amount: amount.toString(),
    decimals: template.decimals,
    symbol: template.symbol,
    payTo: template.payTo,
    maxTimeoutSeconds: template.maxTimeoutSeconds,
    extra: { name: template.eip712.name, version: template.eip712.version },
  };
}

/** The descriptor lists rails without amounts (envelope.md §4). */
export function descriptorRail(template: RailTemplate) {
  return {
    rail: "x402-exact" as const,
    network: template.network,
    asset: template.asset,
    payTo: template.payTo,
  };
}

/** The Quote's display total: for a USD stablecoin it must equal amount / 10^decimals (§7). */
export function displayTotal(template: RailTemplate, amount: bigint) {
  return { amount: formatAmount(amount, template.decimals), currency: "USD" };
}
