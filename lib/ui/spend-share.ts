/** How much of `cap` is spent, as a whole percent from 0 to 100, computed on the exact bigints. */
export function spendShare(spent: string, cap: string | undefined): number | undefined {
  if (cap === undefined) return undefined;
  const limit = BigInt(cap);
  if (limit <= 0n) return 100;
  const share = (BigInt(spent) * 100n) / limit;
  return Number(share > 100n ? 100n : share);
}
