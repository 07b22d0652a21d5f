import { useCallback, useEffect, useState } from "react";
import { useStore } from "zustand";
import type { PaymentRow } from "@/lib/messages";
import { createHistoryStore, rowAt } from "@/lib/ui/history-store";
import { showAmount } from "@/lib/ui/money";
import { callerLabel } from "@/lib/wallet/budget-origin";
import { Button, ErrorNote } from "../shared/controls";
import { HistoryFilters } from "./HistoryFilters";
import { PaymentDetailView } from "./PaymentDetailView";
import { SpendChart } from "./SpendChart";
import { SpendTotals } from "./SpendTotals";
import { VirtualList } from "./VirtualList";

const ROW_HEIGHT = 44;

function PaymentLine({ row, onOpen }: { row: PaymentRow; onOpen(): void }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      className="grid h-full w-full grid-cols-[9rem_5rem_1fr_1fr_1fr_7rem] items-center gap-2 border-b border-slate-100 px-2 text-left text-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-emerald-600 dark:border-slate-900 dark:hover:bg-slate-900"
    >
      <span>{new Date(row.createdAt).toISOString().slice(0, 19).replace("T", " ")}</span>
      <span>{row.state}</span>
      <span className="truncate">{callerLabel(row.origin)}</span>
      <span className="truncate">{row.receiver}</span>
      <span className="truncate">{row.what}</span>
      <span className="text-right font-mono">{showAmount(row.amount)}</span>
    </button>
  );
}

/** Every payment, filtered, paged and windowed; totals, chart, export and detail. */
export function HistoryPanel() {
  const [store] = useState(createHistoryStore);
  const { total, pages, spend, detail, error } = useStore(store);
  useEffect(() => void store.getState().reload(), [store]);
  const ensureRows = useCallback(
    (start: number, end: number) => void store.getState().ensureRows(start, end),
    [store],
  );
  if (detail) return <PaymentDetailView detail={detail} onClose={store.getState().closeDetail} />;
  const currencies = [...new Set(spend.map((s) => s.currency))];
  return (
    <div className="flex flex-col gap-4">
      <HistoryFilters onFilter={(filter) => void store.getState().setFilter(filter)} />
      <ErrorNote>{error}</ErrorNote>
      <div className="flex items-center gap-2">
        <p className="flex-1 text-sm" aria-live="polite">
          {total === 1 ? "1 payment" : `${total.toLocaleString("en")} payments`}
        </p>
        <Button onClick={() => void store.getState().exportAs("csv")}>Export CSV</Button>
        <Button onClick={() => void store.getState().exportAs("json")}>Export JSON</Button>
      </div>
      <VirtualList
        label="Payments"
        count={total}
        rowHeight={ROW_HEIGHT}
        height={440}
        onRangeChange={ensureRows}
        renderRow={(index) => {
          const row = rowAt(pages, index);
          return row ? (
            <PaymentLine row={row} onOpen={() => void store.getState().openDetail(row.id)} />
          ) : (
            <span className="px-2 text-xs text-slate-500">Loading…</span>
          );
        }}
      />
      <section aria-labelledby="spend-heading" className="flex flex-col gap-2">
        <h2 id="spend-heading" className="font-semibold">
          Spend
        </h2>
        {currencies.map((currency) => (
          <SpendChart key={currency} spend={spend} currency={currency} />
        ))}
        <SpendTotals spend={spend} />
      </section>
    </div>
  );
}
