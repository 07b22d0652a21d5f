import { t } from "@/lib/ui/i18n";
import { AddressQr } from "./AddressQr";
import { CopyButton, ErrorNote, StepHeading } from "./controls";
import { useBalances } from "./use-balances";

/** How to put money in: the address (copy, QR), and which tokens on which networks. */
export function FundingInfo({ address }: { address: string }) {
  const { rows, error } = useBalances();
  return (
    <section aria-labelledby="fund-h" className="flex flex-col gap-3" data-testid="funding">
      <StepHeading id="fund-h">{t("fund.title")}</StepHeading>
      <p className="text-sm">{t("fund.explain")}</p>
      <p className="text-sm font-medium" id="fund-address-label">
        {t("fund.address")}
      </p>
      <output
        aria-labelledby="fund-address-label"
        data-testid="fund-address"
        className="font-mono text-xs break-all"
      >
        {address}
      </output>
      <div className="flex items-center gap-3">
        <AddressQr address={address} />
        <CopyButton text={address} label={t("fund.copyAddress")} />
      </div>
      <ErrorNote>{error}</ErrorNote>
      {rows && rows.length === 0 && <p className="text-sm">{t("fund.none")}</p>}
      {rows && rows.length > 0 && (
        <ul aria-label={t("fund.tokens")} className="text-sm" data-testid="fund-tokens">
          {rows.map((row) => (
            <li key={`${row.network} ${row.asset}`}>
              {t("fund.token", [row.symbol, row.networkName])}{" "}
              <span className="text-xs text-slate-600 dark:text-slate-400">
                ({row.testnet ? t("common.testnet") : t("common.mainnet")})
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
