import { useEffect, useState } from "react";
import { formatAmount } from "@/lib/protocol/rails/amount";
import { type BalanceSummary, summarizeBalances } from "@/lib/ui/balances";
import { callWallet } from "@/lib/ui/client";
import { errorText } from "@/lib/ui/error-text";
import { ErrorNote } from "../shared/controls";

/**
 * The money first: what the paying address can still spend, per currency,
 * then per token and network (what signed payments may still take is shown
 * apart). Loaded on its own: a slow network must not hold up the popup.
 */
export function BalanceCard() {
  const [summary, setSummary] = useState<BalanceSummary>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    callWallet({ method: "ui_getBalances", params: undefined }).then(
      ({ balances }) => setSummary(summarizeBalances(balances)),
      (e: unknown) => setError(errorText(e)),
    );
  }, []);
  return (
    <section aria-labelledby="balance-h" className="flex flex-col gap-1" data-testid="balance">
      <h2 id="balance-h" className="font-semibold">
        Balance
      </h2>
      {error && <ErrorNote>{error}</ErrorNote>}
      {!error && !summary && (
        <p className="text-sm" aria-busy="true">
          Checking your balance…
        </p>
      )}
      {summary && (
        <>
          {summary.totals.map((total) => (
            <p key={total.currency} className="text-lg font-semibold" data-testid="balance-total">
              {total.available} {total.currency}
            </p>
          ))}
          {summary.read.length === 0 && (
            <p className="text-sm">
              No balance could be read: check the networks' RPC endpoints in settings.
            </p>
          )}
          <ul aria-label="Balance per token" className="text-xs">
            {summary.read.map((row) => (
              <li key={`${row.network} ${row.asset}`} data-testid="balance-row">
                {formatAmount(BigInt(row.available), row.decimals)} {row.symbol} on{" "}
                {row.networkName}
                {row.testnet ? " (test network)" : ""}
                {row.pending !== "0" &&
                  ` · ${formatAmount(BigInt(row.pending), row.decimals)} signed, not yet collected`}
              </li>
            ))}
          </ul>
          {summary.unread.length > 0 && (
            <details className="text-xs">
              <summary>
                {summary.unread.length} {summary.unread.length === 1 ? "network" : "networks"} not
                read
              </summary>
              <ul>
                {summary.unread.map((row) => (
                  <li key={`${row.network} ${row.asset}`}>
                    {row.symbol} on {row.networkName}: {row.problem}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </section>
  );
}
