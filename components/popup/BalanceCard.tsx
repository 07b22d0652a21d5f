import { summarizeBalances } from "@/lib/ui/balances";
import { t } from "@/lib/ui/i18n";
import { localeAmount } from "@/lib/ui/locale-amount";
import { ErrorNote } from "../shared/controls";
import { useBalances } from "../shared/use-balances";

/**
 * The money first: what the paying address can still spend, per currency,
 * then per token and network (what signed payments may still take is shown
 * apart). Loaded on its own: a slow network must not hold up the popup.
 */
export function BalanceCard() {
  const { rows, error } = useBalances();
  const summary = rows && summarizeBalances(rows);
  return (
    <section aria-labelledby="balance-h" className="flex flex-col gap-1" data-testid="balance">
      <h2 id="balance-h" className="font-semibold">
        {t("balance.title")}
      </h2>
      {error && <ErrorNote>{error}</ErrorNote>}
      {!error && !summary && (
        <p className="text-sm" aria-busy="true">
          {t("balance.checking")}
        </p>
      )}
      {summary && (
        <>
          {summary.totals.map((total) => (
            <p key={total.currency} className="text-lg font-semibold" data-testid="balance-total">
              {total.available} {total.currency}
            </p>
          ))}
          {summary.read.length === 0 && <p className="text-sm">{t("balance.noneRead")}</p>}
          <ul aria-label={t("balance.perToken")} className="text-xs">
            {summary.read.map((row) => (
              <li key={`${row.network} ${row.asset}`} data-testid="balance-row">
                {t("balance.row", [
                  localeAmount(BigInt(row.available), row.decimals),
                  row.symbol,
                  row.networkName,
                ])}
                {row.testnet ? ` (${t("common.testnet")})` : ""}
                {row.pending !== "0" &&
                  ` · ${t("balance.pendingSigned", [localeAmount(BigInt(row.pending), row.decimals)])}`}
              </li>
            ))}
          </ul>
          {summary.unread.length > 0 && (
            <details className="text-xs">
              <summary>{t("balance.unread", summary.unread.length)}</summary>
              <ul>
                {summary.unread.map((row) => (
                  <li key={`${row.network} ${row.asset}`}>
                    {t("balance.unreadRow", [row.symbol, row.networkName, row.problem ?? ""])}
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
