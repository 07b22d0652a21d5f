import type { BalanceRow } from "../messages";
import { localeAmount } from "./locale-amount";

/** What the balance card shows: totals per currency, the tokens read, and those that could not be. */
export interface BalanceSummary {
  /** Per currency, what can still be spent (on chain minus what signed payments may take), as the language writes it. */
  totals: { currency: string; available: string }[];
  read: (BalanceRow & { amount: string; available: string })[];
  unread: BalanceRow[];
}

/** Totals are exact: every token of a currency is counted at the largest decimals among them. */
export function summarizeBalances(rows: readonly BalanceRow[]): BalanceSummary {
  const read = rows.flatMap((row) =>
    row.amount === undefined
      ? []
      : [{ ...row, amount: row.amount, available: available(row.amount, row.pending) }],
  );
  const byCurrency = new Map<string, typeof read>();
  for (const row of read) {
    if (!row.currency) continue;
    byCurrency.set(row.currency, [...(byCurrency.get(row.currency) ?? []), row]);
  }
  const totals = [...byCurrency].map(([currency, tokens]) => {
    const decimals = Math.max(...tokens.map((token) => token.decimals));
    // Each token's available, already stopped at zero: its pending can never take another's money.
    const sum = tokens.reduce(
      (total, token) => total + BigInt(token.available) * 10n ** BigInt(decimals - token.decimals),
      0n,
    );
    return { currency, available: localeAmount(sum, decimals) };
  });
  return { totals, read, unread: rows.filter((row) => row.amount === undefined) };
}

/** Atomic units left once what signed payments may still take is gone; never below zero. */
function available(amount: string, pending: string): string {
  const left = BigInt(amount) - BigInt(pending);
  return (left > 0n ? left : 0n).toString();
}
