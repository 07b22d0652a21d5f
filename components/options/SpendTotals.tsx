import { useId, useState } from "react";
import { t } from "@/lib/ui/i18n";
import { formatUtcDay, formatUtcMonth } from "@/lib/ui/locale-format";
import { showMicro } from "@/lib/ui/money";
import { type DaySpend, type TotalsPeriod, totalsByPeriod } from "@/lib/ui/period-totals";
import { INPUT_CLASS } from "../shared/controls";

/** A period's key in the person's language: a day, a week's Monday, or a month, all UTC. */
function periodWords(period: TotalsPeriod, key: string): string {
  return period === "month" ? formatUtcMonth(key) : formatUtcDay(key);
}

/** Spend totals per UTC day, week or month (as the budgets count them), per currency. */
export function SpendTotals({ spend }: { spend: DaySpend[] }) {
  const [period, setPeriod] = useState<TotalsPeriod>("day");
  const id = useId();
  const totals = totalsByPeriod(spend, period);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-2 text-sm">
        <label htmlFor={id}>{t("history.totals.per")}</label>
        <select
          id={id}
          className={INPUT_CLASS}
          value={period}
          onChange={(e) => setPeriod(e.target.value as TotalsPeriod)}
        >
          <option value="day">{t("history.totals.day")}</option>
          <option value="week">{t("history.totals.week")}</option>
          <option value="month">{t("history.totals.month")}</option>
        </select>
      </div>
      <table className="text-sm">
        <thead>
          <tr className="text-left">
            <th scope="col">
              {period === "week"
                ? t("history.totals.weekHead")
                : period === "month"
                  ? t("history.totals.monthHead")
                  : t("history.totals.dayHead")}
            </th>
            <th scope="col">{t("history.totals.spent")}</th>
          </tr>
        </thead>
        <tbody>
          {totals.length === 0 && (
            <tr>
              <td colSpan={2}>{t("history.totals.none")}</td>
            </tr>
          )}
          {totals.map((total) => (
            <tr key={`${total.period} ${total.currency}`}>
              <td>
                <time dateTime={total.period}>{periodWords(period, total.period)}</time>
                {total.since !== undefined &&
                  ` ${t("history.totals.since", [formatUtcDay(total.since)])}`}
              </td>
              <td>{showMicro(total.amount, total.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
