import type { Address, Caip2 } from "../protocol/offer";
import type { BudgetPeriod } from "./periods";

/**
 * The user's spending rules. Every money value here is a bigint in "micro" units of
 * a fiat currency: 6 decimals, so 1 USD = 1_000_000n. A payment's atomic amount is
 * scaled from its asset's decimals to that scale (see `toMicro`), which lets caps
 * span several tokens of the same currency (USDC and USDT0 both count as USD).
 */
export const MICRO_DECIMALS = 6;

/** A token the user accepts to pay with, and which currency it counts as. */
export interface AllowedAsset {
  network: Caip2;
  asset: Address;
  /** The token's real decimals; an offer claiming others is refused. */
  decimals: number;
  symbol: string;
  /** ISO 4217-style code the token is counted in, e.g. "USD". */
  currency: string;
}

export interface OriginBudget {
  currency: string;
  /** Spendable per `period` (micro units). */
  amount: bigint;
  period: BudgetPeriod;
  /** A single payment up to this is paid without asking (micro units). */
  autoApproveUpTo: bigint;
  /** A single payment above this is refused outright (micro units). */
  perCallMax: bigint;
  /** Auto-approve an MCP tool's price only at or below what its tools/list announced. */
  withinPriceHint?: boolean;
}

export interface PolicySettings {
  /** Caps over all origins, per currency; an absent cap does not limit. */
  globalCaps: Record<string, { day?: bigint; month?: bigint }>;
  /** Keyed by exact origin ("https://agent.example"). An origin not listed has no budget. */
  origins: Record<string, OriginBudget>;
  receivers: {
    /** When non-empty, receivers not listed are never paid without asking. */
    allow: string[];
    /** Never paid. */
    deny: string[];
  };
  networks: Caip2[];
  assets: AllowedAsset[];
}
