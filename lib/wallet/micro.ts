import { MICRO_DECIMALS } from "./policy-settings";

/**
 * Scales an atomic amount with `decimals` to micro units. Rounds up when precision is
 * lost (decimals > 6), so a budget is never charged less than what is paid.
 */
export function toMicro(amount: bigint, decimals: number): bigint {
  if (decimals <= MICRO_DECIMALS) return amount * 10n ** BigInt(MICRO_DECIMALS - decimals);
  const divisor = 10n ** BigInt(decimals - MICRO_DECIMALS);
  const quotient = amount / divisor;
  return amount % divisor === 0n ? quotient : quotient + 1n;
}

/** "1.25 USD" from 1_250_000n: for messages a person reads. */
export function formatMicro(micro: bigint, currency: string): string {
  const sign = micro < 0n ? "-" : "";
  const abs = micro < 0n ? -micro : micro;
  const unit = 10n ** BigInt(MICRO_DECIMALS);
  const fraction = (abs % unit).toString().padStart(MICRO_DECIMALS, "0").replace(/0+$/, "");
  return `${sign}${abs / unit}${fraction ? `.${fraction}` : ""} ${currency}`;
}
