import type { SpendSummary } from "@/lib/messages";
import { t } from "@/lib/ui/i18n";
import { showMicro } from "@/lib/ui/money";
import { spendShare } from "@/lib/ui/spend-share";

function SpendBar({
  label,
  spent,
  cap,
  currency,
}: {
  label: string;
  spent: string;
  cap?: string;
  currency: string;
}) {
  const share = spendShare(spent, cap);
  const words = cap
    ? t("popup.ofCap", [showMicro(spent, currency), showMicro(cap, currency)])
    : t("popup.noCapSet", [showMicro(spent, currency)]);
  return (
    <div className="flex flex-col gap-0.5 text-sm">
      <div className="flex justify-between gap-2">
        <span>{label}</span>
        <span className="font-mono text-xs">{words}</span>
      </div>
      <meter
        aria-label={label}
        aria-valuetext={words}
        min={0}
        max={100}
        low={75}
        high={99}
        optimum={0}
        value={share ?? 0}
        className="h-2 w-full"
      />
    </div>
  );
}

/** Today's and this month's spend against the caps, per currency. */
export function SpendBars({ spend }: { spend: SpendSummary[] }) {
  return (
    <section aria-labelledby="spend-h" className="flex flex-col gap-2">
      <h2 id="spend-h" className="font-semibold">
        {t("popup.spent")}
      </h2>
      {spend.length === 0 && <p className="text-sm">{t("popup.nothingYet")}</p>}
      {spend.map((s) => (
        <div key={s.currency} className="flex flex-col gap-2" data-testid="spend">
          {spend.length > 1 && <p className="text-xs font-medium">{s.currency}</p>}
          <SpendBar label={t("popup.today")} spent={s.today} cap={s.dayCap} currency={s.currency} />
          <SpendBar
            label={t("popup.thisMonth")}
            spent={s.month}
            cap={s.monthCap}
            currency={s.currency}
          />
        </div>
      ))}
    </section>
  );
}
