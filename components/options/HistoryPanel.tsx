import { useCallback, useEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import type { PaymentRow } from "@/lib/messages";
import { createHistoryStore, rowAt } from "@/lib/ui/history-store";
import { t } from "@/lib/ui/i18n";
import { formatCount, formatDateTime } from "@/lib/ui/locale-format";
import { showAmount } from "@/lib/ui/money";
import { paidForWords, receiverWords, siteWords } from "@/lib/ui/payment-words";
import { Button, ErrorNote } from "../shared/controls";
import { StateBadge } from "../shared/StateBadge";
import { HistoryFilters } from "./HistoryFilters";
import { PaymentDetailView } from "./PaymentDetailView";
import { SpendByTables } from "./SpendByTables";
import { SpendChart } from "./SpendChart";
import { SpendTotals } from "./SpendTotals";
import { VirtualList } from "./VirtualList";

const ROW_HEIGHT = 44;
const COLUMNS = "grid grid-cols-[9rem_6rem_1fr_1fr_1fr_7rem] items-center gap-2 px-2";

/**
 * A cell's column, said to a screen reader before its value (and a pause
 * after it): the cells alone run together in the row button's name.
 */
function Column({ name }: { name: string }) {
  return <span className="sr-only">{t("history.cell", [name])}</span>;
}

/** The pause a screen reader makes between two cells. */
function CellEnd() {
  return <span className="sr-only">{t("history.cellEnd")}</span>;
}

function PaymentLine({ row, onOpen }: { row: PaymentRow; onOpen(): void }) {
  return (
    <button
      type="button"
      data-payment={row.id}
      onClick={onOpen}
      className={`${COLUMNS} h-full w-full border-b border-slate-100 text-left text-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-emerald-600 dark:border-slate-900 dark:hover:bg-slate-900`}
    >
      <span>
        <Column name={t("history.columns.when")} />
        <time dateTime={new Date(row.createdAt).toISOString()}>
          {formatDateTime(row.createdAt)}
        </time>
        <CellEnd />
      </span>
      <span>
        <Column name={t("history.columns.state")} />
        <StateBadge state={row.state} reason={row.reason} />
        <CellEnd />
      </span>
      <span className="truncate" title={row.origin}>
        <Column name={t("history.columns.site")} />
        {siteWords(row.origin)}
        <CellEnd />
      </span>
      <span className="truncate" title={row.receiver}>
        <Column name={t("history.columns.receiver")} />
        <bdi>{receiverWords(row.receiver, row.receiverName)}</bdi>
        <CellEnd />
      </span>
      <span className="truncate" title={row.what}>
        <Column name={t("history.columns.what")} />
        <bdi>{paidForWords(row)}</bdi>
        <CellEnd />
      </span>
      <span className="text-right font-mono">
        <Column name={t("history.columns.amount")} />
        {showAmount(row.amount)}
      </span>
    </button>
  );
}

/** Every payment, filtered, sorted, paged and windowed; totals, chart, export and detail. */
export function HistoryPanel() {
  const [store] = useState(createHistoryStore);
  const { total, pages, spend, totals, order, detail, error } = useStore(store);
  /** The payment whose detail was closed: its row takes the focus back once the list is shown. */
  const returnTo = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (detail || returnTo.current === undefined) return;
    document
      .querySelector<HTMLElement>(`[data-payment="${CSS.escape(returnTo.current)}"]`)
      ?.focus();
    returnTo.current = undefined;
  });
  // Opening the history is when the person wants the latest word from the chain: the rows
  // show at once, and again once the settlement pass (which may wait on a slow node) is done.
  // The pass starts after the first load: its writes would otherwise queue behind the long read
  // of the totals, and every read the page makes after them behind the writes.
  useEffect(() => {
    const history = store.getState();
    void history.reload().then(() => history.refreshSettlements());
  }, [store]);
  const ensureRows = useCallback(
    (start: number, end: number) => void store.getState().ensureRows(start, end),
    [store],
  );
  if (detail) {
    const close = () => {
      store.getState().closeDetail();
      returnTo.current = detail.id;
    };
    return <PaymentDetailView detail={detail} onClose={close} />;
  }
  const currencies = [...new Set(spend.map((s) => s.currency))];
  return (
    <div className="flex flex-col gap-4">
      <HistoryFilters onFilter={(filter) => void store.getState().setFilter(filter)} />
      <ErrorNote>{error}</ErrorNote>
      <div className="flex items-center gap-2">
        <p className="flex-1 text-sm" aria-live="polite">
          {t("history.count", total, [formatCount(total)])}
        </p>
        <Button onClick={() => void store.getState().exportAs("csv")}>
          {t("history.exportCsv")}
        </Button>
        <Button onClick={() => void store.getState().exportAs("json")}>
          {t("history.exportJson")}
        </Button>
      </div>
      <div>
        <div
          className={`${COLUMNS} border-b border-slate-300 py-1 text-xs font-semibold dark:border-slate-700`}
          data-testid="history-columns"
        >
          <Button
            className="justify-self-start px-1 py-0.5 text-xs"
            onClick={() => void store.getState().setOrder(order === "newest" ? "oldest" : "newest")}
          >
            {order === "newest" ? t("history.sortNewest") : t("history.sortOldest")}{" "}
            <span aria-hidden="true">{order === "newest" ? "↓" : "↑"}</span>
          </Button>
          <span>{t("history.columns.state")}</span>
          <span>{t("history.columns.site")}</span>
          <span>{t("history.columns.receiver")}</span>
          <span>{t("history.columns.what")}</span>
          <span className="text-right">{t("history.columns.amount")}</span>
        </div>
        <VirtualList
          label={t("history.list")}
          count={total}
          rowHeight={ROW_HEIGHT}
          height={440}
          onRangeChange={ensureRows}
          renderRow={(index) => {
            const row = rowAt(pages, index);
            return row ? (
              <PaymentLine row={row} onOpen={() => void store.getState().openDetail(row.id)} />
            ) : (
              <span className="px-2 text-xs text-slate-600 dark:text-slate-400">
                {t("history.rowLoading")}
              </span>
            );
          }}
        />
      </div>
      <section aria-labelledby="spend-heading" className="flex flex-col gap-3">
        <h2 id="spend-heading" className="font-semibold">
          {t("history.spend")}
        </h2>
        {currencies.map((currency) => (
          <SpendChart key={currency} spend={spend} currency={currency} />
        ))}
        <SpendByTables totals={totals} />
        <SpendTotals spend={spend} />
      </section>
    </div>
  );
}
