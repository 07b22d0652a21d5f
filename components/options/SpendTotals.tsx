import { useId, useState } from "react";
import { showMicro } from "@/lib/ui/money";
import { type DaySpend, type TotalsPeriod, totalsByPeriod } from "@/lib/ui/period-totals";
import { INPUT_CLASS } from "../shared/controls";

/** Spend totals per day, week or month, per currency. */
export function SpendTotals({ spend }: { spend: DaySpend[] }) {
  const [period, setPeriod] = useState<TotalsPeriod>("day");
  const id = useId();
  const totals = totalsByPeriod(spend, period);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-2 text-sm">
        <label htmlFor={id}>Totals per</label>
        <select
          id={id}
          className={INPUT_CLASS}
          value={period}
          onChange={(e) => setPeriod(e.target.value as TotalsPeriod)}
        >
          <option value="day">day</option>
          <option value="week">week</option>
          <option value="month">month</option>
        </select>
      </div>
      <table className="text-sm">
        <thead>
          <tr className="text-left">
            <th scope="col">
              {period === "week" ? "Week of" : period === "month" ? "Month" : "Day"}
            </th>
            <th scope="col">Spent</th>
          </tr>
        </thead>
        <tbody>
          {totals.length === 0 && (
            <tr>
              <td colSpan={2}>Nothing spent in this range.</td>
            </tr>
          )}
          {totals.map((t) => (
            <tr key={`${t.period} ${t.currency}`}>
              <td>{t.period}</td>
              <td>{showMicro(t.amount, t.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
