// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { installFakeBackground } from "../../tests/unit-support/ui/fake-background";
import { BASE_USDC, PAYMENT_DETAIL, PAYMENT_ROW } from "../../tests/unit-support/ui/fixtures";
import type { PaymentFilter, PaymentRow } from "../messages";
import { createHistoryStore, PAGE_SIZE, rowAt, SPEND_DAYS } from "./history-store";

const TOTAL = 100_000;
const rowsFor = (offset: number, limit: number): PaymentRow[] =>
  Array.from({ length: Math.min(limit, TOTAL - offset) }, (_, i) => ({
    ...PAYMENT_ROW,
    id: `pay-${offset + i}`,
  }));

describe("history store", () => {
  let listed: { filter: PaymentFilter; offset: number; limit: number }[];
  let calls: ReturnType<typeof installFakeBackground>;
  beforeEach(() => {
    fakeBrowser.reset();
    listed = [];
    calls = installFakeBackground({
      ui_listPayments: (params) => {
        listed.push(params);
        return { rows: rowsFor(params.offset, params.limit), total: TOTAL };
      },
      ui_spendPerDay: () => [{ day: "2025-03-01", currency: "USD", amount: "5000" }],
      ui_spendBy: () => ({
        sites: [
          {
            key: "https://agent.example",
            ...BASE_USDC,
            symbol: "USDC",
            decimals: 6,
            atomic: "5000",
            count: 1,
          },
        ],
        receivers: [],
      }),
      ui_checkSettlements: () => null,
      ui_getPayment: ({ id }) => ({ ...PAYMENT_DETAIL, id }),
      ui_exportPayments: ({ format }) => ({
        filename: `payments.${format}`,
        mimeType: format === "csv" ? "text/csv" : "application/json",
        content: "x",
      }),
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it("loads the first page and the spend series for the filter", async () => {
    const store = createHistoryStore();
    const filter: PaymentFilter = { origin: "https://agent.example", state: "settled" };
    await store.getState().setFilter(filter);
    expect(listed).toEqual([{ filter, offset: 0, limit: PAGE_SIZE }]);
    expect(calls.find((c) => c.method === "ui_spendPerDay")?.params).toEqual({
      filter,
      days: SPEND_DAYS,
    });
    expect(store.getState().total).toBe(TOTAL);
    expect(store.getState().spend).toHaveLength(1);
    expect(rowAt(store.getState().pages, 5)?.id).toBe("pay-5");
    expect(store.getState().totals.sites.map((s) => s.atomic)).toEqual(["5000"]);
  });

  it("shows the rows and the daily spend without waiting for the totals per site", async () => {
    installFakeBackground({
      ui_listPayments: (params) => ({ rows: rowsFor(params.offset, params.limit), total: TOTAL }),
      ui_spendPerDay: () => [{ day: "2025-03-01", currency: "USD", amount: "5000" }],
      // Totals per site read every matching payment: on a long history they come last.
      ui_spendBy: () => new Promise<never>(() => undefined),
    });
    const store = createHistoryStore();
    void store.getState().reload();
    await vi.waitFor(() => {
      expect(store.getState().spend).toHaveLength(1);
      expect(store.getState().total).toBe(TOTAL);
    });
  });

  it("sorts oldest first on request, and checks settlements before reloading", async () => {
    const store = createHistoryStore();
    await store.getState().setOrder("oldest");
    expect(listed.at(-1)).toEqual({ filter: {}, offset: 0, limit: PAGE_SIZE, order: "oldest" });
    await store.getState().refreshSettlements();
    const methods = calls.map((c) => c.method);
    expect(methods.lastIndexOf("ui_checkSettlements")).toBeLessThan(
      methods.lastIndexOf("ui_listPayments"),
    );
    expect(methods).toContain("ui_checkSettlements");
  });

  it("fetches only the pages a window needs, once", async () => {
    const store = createHistoryStore();
    await store.getState().reload();
    await Promise.all([
      store.getState().ensureRows(50_150, 50_230),
      store.getState().ensureRows(50_150, 50_230),
    ]);
    expect(listed.map((l) => l.offset)).toEqual([0, 50_000, 50_200]);
    expect(rowAt(store.getState().pages, 50_229)?.id).toBe("pay-50229");
    expect(rowAt(store.getState().pages, 70_000)).toBeUndefined();
  });

  it("drops an answer for a filter the person has already replaced", async () => {
    const store = createHistoryStore();
    const stale = store.getState().setFilter({ text: "old" });
    await store.getState().setFilter({ text: "new" });
    await stale;
    expect(store.getState().filter).toEqual({ text: "new" });
    expect(Object.keys(store.getState().pages)).toEqual(["0"]);
    expect(listed.map((l) => l.filter.text)).toEqual(["old", "new"]);
  });

  it("shows no error for a filter already replaced, whose totals read the wallet stopped", async () => {
    let asked = 0;
    installFakeBackground({
      ui_listPayments: (params) => ({ rows: rowsFor(params.offset, params.limit), total: TOTAL }),
      ui_spendPerDay: () => [],
      ui_spendBy: async () => {
        asked += 1;
        if (asked === 1) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw new Error("The same page asked for this again; this read stopped");
        }
        return { sites: [], receivers: [] };
      },
    });
    const store = createHistoryStore();
    const stale = store.getState().setFilter({ text: "old" });
    await store.getState().setFilter({ text: "new" });
    await stale;
    expect(store.getState().error).toBeUndefined();
    fakeBrowser.reset();
    installFakeBackground({
      ui_listPayments: () => {
        throw new Error("database closed");
      },
    });
    await store.getState().reload();
    expect(store.getState().error).toContain("database closed");
  });

  it("opens a payment's detail and exports with the current filter", async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const store = createHistoryStore();
    await store.getState().setFilter({ receiver: "did:web:api.weather.example" });
    await store.getState().openDetail("pay-9");
    expect(store.getState().detail?.id).toBe("pay-9");
    store.getState().closeDetail();
    expect(store.getState().detail).toBeUndefined();
    await store.getState().exportAs("json");
    expect(calls.at(-1)?.params).toEqual({
      filter: { receiver: "did:web:api.weather.example" },
      format: "json",
    });
    expect(click).toHaveBeenCalledTimes(1);
  });
});
