import type { PaymentRow } from "@/lib/messages";
import { isolated } from "@/lib/ui/bidi";
import { t } from "@/lib/ui/i18n";
import { showAmount } from "@/lib/ui/money";
import { paymentWords } from "@/lib/ui/payment-words";
import { StateBadge } from "../shared/StateBadge";

/** The last payments: for what and to whom in words, the amount, the state in colour. */
export function RecentPayments({ rows }: { rows: PaymentRow[] }) {
  return (
    <section aria-labelledby="recent-h">
      <h2 id="recent-h" className="font-semibold">
        {t("popup.recent.title")}
      </h2>
      {rows.length === 0 && <p className="text-sm">{t("popup.recent.none")}</p>}
      <ul className="flex flex-col gap-1 text-xs" aria-label={t("popup.recent.title")}>
        {rows.map((p) => {
          const { who, what } = paymentWords(p);
          return (
            <li key={p.id} className="flex items-center justify-between gap-2" data-testid="recent">
              <span
                className="min-w-0 break-words"
                title={t("popup.recent.paidToTitle", [p.receiver, p.what])}
              >
                {t("popup.recent.paidTo", [isolated(who), isolated(what)])}
              </span>
              <StateBadge state={p.state} reason={p.reason} />
              <span className="font-mono whitespace-nowrap">{showAmount(p.amount)}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
