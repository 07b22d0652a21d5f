import { t } from "@/lib/ui/i18n";
import { formatCount, formatUtcDay } from "@/lib/ui/locale-format";
import { showMicro } from "@/lib/ui/money";
import type { DaySpend } from "@/lib/ui/period-totals";
import { DAY_MS } from "@/lib/wallet/periods";

const PLOT_WIDTH = 600;
const PLOT_HEIGHT = 120;
/** Room for the amount axis on the left and the day axis below. */
const LEFT = 72;
const BOTTOM = 36;

/** The last `days` UTC days (the budgets' days), oldest first, as YYYY-MM-DD. */
function lastDays(days: number, now: number): string[] {
  return Array.from({ length: days }, (_, i) =>
    new Date(now - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/**
 * Spend per UTC day in one currency as SVG bars over two labelled axes (amount,
 * day); each bar's exact amount is its tooltip. The days are UTC days, as the
 * budgets count them, and the labels say so.
 */
export function SpendChart({
  spend,
  currency,
  days = 30,
  now = Date.now(),
}: {
  spend: DaySpend[];
  currency: string;
  days?: number;
  now?: number;
}) {
  const byDay = new Map(
    spend.filter((s) => s.currency === currency).map((s) => [s.day, BigInt(s.amount)]),
  );
  // Ends today, or at the later day the wallet counts in while this clock is set back.
  const latest = Math.max(now, ...[...byDay.keys()].map((day) => Date.parse(`${day}T00:00:00Z`)));
  const series = lastDays(days, latest).map((day) => ({ day, amount: byDay.get(day) ?? 0n }));
  // biome-ignore lint/complexity/useMathMinMax: Math.max does not take bigints.
  const max = series.reduce((m, s) => (s.amount > m ? s.amount : m), 0n);
  const slot = PLOT_WIDTH / days;
  const first = series[0];
  const last = series.at(-1);
  return (
    <svg
      role="img"
      aria-label={t("history.chart.label", [currency, formatCount(days)])}
      viewBox={`0 0 ${LEFT + PLOT_WIDTH} ${PLOT_HEIGHT + BOTTOM}`}
      className="h-40 w-full text-emerald-600 dark:text-emerald-400"
    >
      <g className="fill-slate-600 text-[11px] dark:fill-slate-300">
        <text x={LEFT - 6} y={10} textAnchor="end">
          {showMicro(max.toString(), currency)}
        </text>
        <text x={LEFT - 6} y={PLOT_HEIGHT} textAnchor="end">
          0
        </text>
        <text
          x={12}
          y={PLOT_HEIGHT / 2}
          transform={`rotate(-90 12 ${PLOT_HEIGHT / 2})`}
          textAnchor="middle"
        >
          {t("history.chart.axisAmount", [currency])}
        </text>
        <text x={LEFT} y={PLOT_HEIGHT + 16}>
          {first && formatUtcDay(first.day)}
        </text>
        <text x={LEFT + PLOT_WIDTH} y={PLOT_HEIGHT + 16} textAnchor="end">
          {last && formatUtcDay(last.day)}
        </text>
        <text x={LEFT + PLOT_WIDTH / 2} y={PLOT_HEIGHT + 32} textAnchor="middle">
          {t("history.chart.axisDays")}
        </text>
      </g>
      <g className="stroke-slate-400 dark:stroke-slate-500">
        <line x1={LEFT} y1={0} x2={LEFT} y2={PLOT_HEIGHT} />
        <line x1={LEFT} y1={PLOT_HEIGHT} x2={LEFT + PLOT_WIDTH} y2={PLOT_HEIGHT} />
      </g>
      {series.map(({ day, amount }, i) => {
        // Pixel geometry only: the amounts themselves stay exact in the titles.
        const height = max === 0n ? 0 : (Number((amount * 1000n) / max) / 1000) * (PLOT_HEIGHT - 4);
        return (
          <rect
            key={day}
            data-day={day}
            x={LEFT + i * slot + 1}
            y={PLOT_HEIGHT - height}
            width={Math.max(1, slot - 2)}
            height={height}
            fill="currentColor"
          >
            <title>
              {t("history.chart.bar", [formatUtcDay(day), showMicro(amount.toString(), currency)])}
            </title>
          </rect>
        );
      })}
    </svg>
  );
}
