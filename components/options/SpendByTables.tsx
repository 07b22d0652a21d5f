import type { SpendByTotal } from "@/lib/messages";
import { t } from "@/lib/ui/i18n";
import { localeAmount } from "@/lib/ui/locale-amount";
import { formatCount } from "@/lib/ui/locale-format";
import { receiverWords, siteWords } from "@/lib/ui/payment-words";

function TotalsTable({
  caption,
  keyHead,
  rows,
  name,
}: {
  caption: string;
  keyHead: string;
  rows: SpendByTotal[];
  name(key: string): string;
}) {
  return (
    <table className="text-sm" aria-label={caption}>
      <caption className="text-left font-medium">{caption}</caption>
      <thead>
        <tr className="text-left">
          <th scope="col">{keyHead}</th>
          <th scope="col">{t("history.payments")}</th>
          <th scope="col" className="text-right">
            {t("history.columns.amount")}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={3}>{t("history.nothingPaid")}</td>
          </tr>
        )}
        {rows.map((row) => (
          <tr key={`${row.key} ${row.network} ${row.asset} ${row.symbol} ${row.decimals}`}>
            <td className="pr-4" title={row.key}>
              {name(row.key)}
            </td>
            <td className="pr-4">{formatCount(row.count)}</td>
            <td className="text-right font-mono">
              {localeAmount(BigInt(row.atomic), row.decimals)} {row.symbol}
              <span className="block font-sans text-xs">
                {row.testnet
                  ? t("history.testMoneyOn", [row.networkName])
                  : t("history.onNetwork", [row.networkName])}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What each site paid and each receiver was paid, per token and network: test money said so. */
export function SpendByTables({
  totals,
}: {
  totals: { sites: SpendByTotal[]; receivers: SpendByTotal[] };
}) {
  return (
    <div className="flex flex-wrap gap-8">
      <TotalsTable
        caption={t("history.perSite")}
        keyHead={t("history.columns.site")}
        rows={totals.sites}
        name={siteWords}
      />
      <TotalsTable
        caption={t("history.perReceiver")}
        keyHead={t("history.columns.receiver")}
        rows={totals.receivers}
        name={receiverWords}
      />
    </div>
  );
}
