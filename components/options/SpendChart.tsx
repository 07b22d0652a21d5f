import { showMicro } from "@/lib/ui/money";
import type { DaySpend } from "@/lib/ui/period-totals";
import { DAY_MS } from "@/lib/wallet/periods";

const WIDTH = 600;
const HEIGHT = 120;

/** The last `days` UTC days, oldest first, as YYYY-MM-DD. */
function lastDays(days: number, now: number): string[] {
  return Array.from({ length: days }, (_, i) =>
    new Date(now - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/** Spend per day in one currency, as plain SVG bars; each bar's exact amount is in its title. */
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
  const series = lastDays(days, now).map((day) => ({ day, amount: byDay.get(day) ?? 0n }));
  // biome-ignore lint/complexity/useMathMinMax: Math.max does not take bigints.
  const max = series.reduce((m, s) => (s.amount > m ? s.amount : m), 0n);
  const slot = WIDTH / days;
  return (
    <svg
      role="img"
      aria-label={`Spend per day in ${currency}, last ${days} days`}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="h-32 w-full text-emerald-600 dark:text-emerald-400"
    >
      {series.map(({ day, amount }, i) => {
        // Pixel geometry only: the amounts themselves stay exact in the titles.
        const height = max === 0n ? 0 : (Number((amount * 1000n) / max) / 1000) * (HEIGHT - 4);
        return (
          <rect
            key={day}
            data-day={day}
            x={i * slot + 1}
            y={HEIGHT - height}
            width={Math.max(1, slot - 2)}
            height={height}
            fill="currentColor"
          >
            <title>{`${day}: ${showMicro(amount.toString(), currency)}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
