import type { PaymentStateView } from "@/lib/messages";
import { stateWords } from "@/lib/ui/state-words";

const COLOURS: Record<PaymentStateView, string> = {
  quoted: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  approved: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  signed: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  settled: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  declined: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100",
  refused: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  expired: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100",
};

/** States whose money moved: a reason beside one is a problem worth a look (a receipt rejected, no result). */
const PAID: ReadonlySet<PaymentStateView> = new Set(["signed", "settled"]);

/**
 * A payment's state in words and colour; the reason, when there is one, on hover and for
 * screen readers, and marked (⚠) beside a paid one, where the colour says all is well.
 * Where the reason is written out beside the badge (`reasonBeside`), only the mark is
 * added: a screen reader would otherwise read it twice.
 */
export function StateBadge({
  state,
  reason,
  reasonBeside = false,
}: {
  state: PaymentStateView;
  reason?: string;
  reasonBeside?: boolean;
}) {
  const words = stateWords(state);
  return (
    <span
      className={`rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ${COLOURS[state]}`}
      data-state={state}
      title={reasonBeside ? undefined : reason}
    >
      {words}
      {reason && PAID.has(state) && (
        <span aria-hidden="true" data-testid="state-note">
          {" "}
          ⚠
        </span>
      )}
      {reason && !reasonBeside && <span className="sr-only">: {reason}</span>}
    </span>
  );
}
