import { parseUnits } from "viem";
import type { McpServerReport } from "../messages";
import type { HintComparison } from "../wallet/policy";
import { MICRO_DECIMALS } from "../wallet/policy-settings";
import { realCurrency } from "../wallet/test-money";

/** A tool's `stipendex/pricing` estimate, as a number the wallet can compare. */
export interface PriceHint {
  /** As the server wrote it, e.g. "0.005 USD". */
  estimate: string;
  model?: string;
  /** The estimate in micro units of `currency`, when it reads as "<decimal> <currency>". */
  micro?: bigint;
  currency?: string;
}

const ESTIMATE = /^\s*(\d{1,12}(?:\.\d{1,6})?)\s+([A-Za-z]{3,5})\s*$/;

/** The hint a server's tools/list gave `tool`, if any. */
export function priceHint(
  report: McpServerReport | undefined,
  tool: string,
): PriceHint | undefined {
  const pricing = report?.tools?.find((t) => t.name === tool)?.pricing;
  if (pricing?.estimate === undefined) return undefined;
  const parsed = ESTIMATE.exec(pricing.estimate);
  return {
    estimate: pricing.estimate,
    ...(pricing.model === undefined ? {} : { model: pricing.model }),
    ...(parsed?.[1] && parsed[2]
      ? { micro: parseUnits(parsed[1], MICRO_DECIMALS), currency: parsed[2].toUpperCase() }
      : {}),
  };
}

/**
 * How a price stands against its tool's hint: compared in the hint's currency,
 * where the payment counts in that currency (test money in its real one).
 */
export function compareToHint(
  hint: PriceHint | undefined,
  micro: bigint,
  currency: string,
): HintComparison {
  if (hint?.micro === undefined || realCurrency(currency) !== hint.currency) return "none";
  return micro > hint.micro ? "above" : "within";
}
