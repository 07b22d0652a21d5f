import { formatUnits } from "viem";
import { ProtocolError } from "../errors";
import type { OfferedRail } from "./claims";

/** Stablecoins whose display total must equal the rail amount exactly (§7), by symbol. */
const STABLECOIN_CURRENCY: Readonly<Record<string, string>> = {
  USDC: "USD",
  USDT0: "USD",
  USDT: "USD",
};

/** "0010.50" → "10.5": one spelling per decimal value, so equality is string equality. */
function normalizeDecimal(amount: string): string {
  const [whole = "", fraction = ""] = amount.split(".");
  const integer = whole.replace(/^0+(?=\d)/, "");
  const decimals = fraction.replace(/0+$/, "");
  return decimals === "" ? integer : `${integer}.${decimals}`;
}

/** Whether a display total states exactly `amount` atomic units with `decimals`, in `currency`. */
export function totalMatchesAmount(
  total: { amount: string; currency: string },
  amount: bigint,
  decimals: number,
  currency: string,
): boolean {
  return (
    total.currency === currency && normalizeDecimal(total.amount) === formatUnits(amount, decimals)
  );
}

/**
 * For every stablecoin rail, `total` must be in its currency and equal
 * amount / 10^decimals exactly (bigint arithmetic, no floats). Other rails
 * cannot be checked against a display total and are left to the rails registry.
 */
export function assertTotalMatchesRails(
  total: { amount: string; currency: string },
  rails: readonly OfferedRail[],
): void {
  for (const [index, rail] of rails.entries()) {
    const currency = STABLECOIN_CURRENCY[rail.symbol.toUpperCase()];
    if (currency === undefined) continue;
    if (!totalMatchesAmount(total, BigInt(rail.amount), rail.decimals, currency)) {
      const railValue = formatUnits(BigInt(rail.amount), rail.decimals);
      throw new ProtocolError(
        "total-mismatch",
        `Quote total ${total.amount} ${total.currency} disagrees with rail ${index}: ${rail.amount} atomic ${rail.symbol} with ${rail.decimals} decimals is ${railValue} ${currency}`,
      );
    }
  }
}
