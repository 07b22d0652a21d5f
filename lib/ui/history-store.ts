import { createStore } from "zustand/vanilla";
import { errorText } from "../errors";
import type {
  PaymentDetail,
  PaymentFilter,
  PaymentOrder,
  PaymentRow,
  SpendByTotal,
} from "../messages";
import { callWallet } from "./client";
import { downloadFile } from "./download";
import type { DaySpend } from "./period-totals";

/** Rows fetched per ui_listPayments call. */
export const PAGE_SIZE = 200;
/** Days of spend the chart and the totals cover. */
export const SPEND_DAYS = 92;

export interface HistoryStore {
  filter: PaymentFilter;
  total: number;
  /** Loaded pages of rows by page number; a list of 100,000 is never loaded whole. */
  pages: Record<number, PaymentRow[]>;
  spend: DaySpend[];
  order: PaymentOrder;
  /** What each site and each receiver was paid, for the filter. */
  totals: { sites: SpendByTotal[]; receivers: SpendByTotal[] };
  detail?: PaymentDetail;
  error?: string;
  setFilter(filter: PaymentFilter): Promise<void>;
  setOrder(order: PaymentOrder): Promise<void>;
  /** Asks the background to check settlements on chain, then reloads. */
  refreshSettlements(): Promise<void>;
  reload(): Promise<void>;
  ensureRows(start: number, end: number): Promise<void>;
  openDetail(id: string): Promise<void>;
  closeDetail(): void;
  exportAs(format: "csv" | "json"): Promise<void>;
}

/** The row at `index`, when its page is loaded. */
export function rowAt(pages: Record<number, PaymentRow[]>, index: number): PaymentRow | undefined {
  return pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];
}

/** The history page's filter, paged rows, spend series and open detail. */
export function createHistoryStore() {
  // Answers for an older filter are dropped: the person has moved on.
  let generation = 0;
  let loading = new Set<number>();
  return createStore<HistoryStore>()((set, get) => {
    const fetchPage = async (page: number, gen: number) => {
      loading.add(page);
      const { rows, total } = await callWallet({
        method: "ui_listPayments",
        params: {
          filter: get().filter,
          offset: page * PAGE_SIZE,
          limit: PAGE_SIZE,
          ...(get().order === "oldest" ? { order: "oldest" as const } : {}),
        },
      });
      if (gen === generation) set({ total, pages: { ...get().pages, [page]: rows } });
    };
    /** Shows what `action` failed with, unless it was started for a filter since replaced. */
    const guarded = async (action: () => Promise<void>, gen?: number) => {
      try {
        await action();
      } catch (error) {
        // An older read the wallet stopped (the page asked again) is not this page's error.
        if (gen === undefined || gen === generation) set({ error: errorText(error) });
      }
    };
    return {
      filter: {},
      total: 0,
      pages: {},
      spend: [],
      order: "newest",
      totals: { sites: [], receivers: [] },
      setFilter: (filter) => {
        set({ filter });
        return get().reload();
      },
      setOrder: (order) => {
        set({ order });
        return get().reload();
      },
      refreshSettlements: () =>
        guarded(async () => {
          await callWallet({ method: "ui_checkSettlements", params: undefined });
          await get().reload();
        }),
      reload: () => {
        generation += 1;
        loading = new Set();
        const gen = generation;
        set({ pages: {}, error: undefined });
        // Each part shows as it arrives: the totals per site and receiver read every matching
        // payment, which the rows and the daily sums need not wait for.
        return guarded(async () => {
          await Promise.all([
            fetchPage(0, gen),
            callWallet({
              method: "ui_spendPerDay",
              params: { filter: get().filter, days: SPEND_DAYS },
            }).then((spend) => {
              if (gen === generation) set({ spend });
            }),
            callWallet({ method: "ui_spendBy", params: { filter: get().filter } }).then(
              (totals) => {
                if (gen === generation) set({ totals });
              },
            ),
          ]);
        }, gen);
      },
      ensureRows: (start, end) => {
        const gen = generation;
        const wanted: Promise<void>[] = [];
        for (let page = Math.floor(start / PAGE_SIZE); page * PAGE_SIZE < end; page++) {
          if (!get().pages[page] && !loading.has(page)) wanted.push(fetchPage(page, gen));
        }
        return guarded(async () => {
          await Promise.all(wanted);
        });
      },
      openDetail: (id) =>
        guarded(async () => {
          set({ detail: await callWallet({ method: "ui_getPayment", params: { id } }) });
        }),
      closeDetail: () => set({ detail: undefined }),
      exportAs: (format) =>
        guarded(async () => {
          downloadFile(
            await callWallet({
              method: "ui_exportPayments",
              params: { filter: get().filter, format },
            }),
          );
        }),
    };
  });
}
