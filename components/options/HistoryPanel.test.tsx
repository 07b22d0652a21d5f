// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { installFakeBackground } from "@/tests/unit-support/ui/fake-background";
import { BASE_USDC, PAYMENT_DETAIL, PAYMENT_ROW } from "@/tests/unit-support/ui/fixtures";
import { HistoryPanel } from "./HistoryPanel";

describe("HistoryPanel", () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });
  it("lists 100,000 payments a window at a time, filters, and opens a detail", async () => {
    const calls = installFakeBackground({
      ui_listPayments: ({ offset, limit, filter }) => ({
        total: filter.text ? 1 : 100_000,
        rows: Array.from({ length: filter.text ? 1 : limit }, (_, i) => ({
          ...PAYMENT_ROW,
          id: `pay-${offset + i}`,
          what: `tool-${offset + i}`,
        })),
      }),
      ui_spendPerDay: () => [],
      ui_checkSettlements: () => null,
      ui_spendBy: () => ({
        sites: [
          {
            key: "https://agent.example",
            ...BASE_USDC,
            symbol: "USDC",
            decimals: 6,
            atomic: "15000",
            count: 3,
          },
        ],
        receivers: [],
      }),
      ui_getPayment: ({ id }) => ({ ...PAYMENT_DETAIL, id }),
    });
    render(<HistoryPanel />);
    expect(await screen.findByText("100,000 payments")).toBeTruthy();
    await vi.waitFor(() => expect(calls.map((c) => c.method)).toContain("ui_checkSettlements"));
    const perSite = screen.getByRole("table", { name: "Paid per site" });
    expect(
      within(perSite)
        .getAllByRole("row")
        .map((row) => row.textContent),
    ).toEqual(["SitePaymentsAmount", "agent.example30.015 USDCon Base"]);
    const list = screen.getByRole("list", { name: "Payments" });
    await within(list).findByText("tool-0");
    expect(within(list).getAllByRole("listitem").length).toBeLessThan(30);
    // Accessibility review: a row's name ran its cells together ("12:47:46 PMdeclined…").
    const [first] = within(list).getAllByRole("button");
    expect(first?.textContent).toMatch(
      /^When: .+; State: .+; Site: agent\.example; Paid to: .+; For: tool-0; Amount: .+$/,
    );
    expect(first?.hasAttribute("aria-label")).toBe(false);
    fireEvent.change(screen.getByLabelText("Search payments"), { target: { value: "tool-7" } });
    expect(await screen.findByText("1 payment")).toBeTruthy();
    expect(calls.filter((c) => c.method === "ui_listPayments").at(-1)?.params).toEqual({
      filter: { text: "tool-7" },
      offset: 0,
      limit: 200,
    });
    fireEvent.click(screen.getByRole("button", { name: "When, newest first" }));
    await screen.findByRole("button", { name: "When, oldest first" });
    expect(calls.filter((c) => c.method === "ui_listPayments").at(-1)?.params).toEqual({
      filter: { text: "tool-7" },
      offset: 0,
      limit: 200,
      order: "oldest",
    });
    fireEvent.click(await within(list).findByText("tool-0"));
    expect(await screen.findByText("Payment pay-0")).toBeTruthy();
    // Accessibility review: focus fell to the page's start as the detail opened, and as it closed.
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Payment pay-0" }));
    fireEvent.click(screen.getByRole("button", { name: "Back to payments" }));
    const row = await within(screen.getByRole("list", { name: "Payments" })).findByText("tool-0");
    await vi.waitFor(() => expect(document.activeElement).toBe(row.closest("button")));
  });

  it("shows the payments while the settlement pass still waits on the chain", async () => {
    installFakeBackground({
      ui_listPayments: ({ offset }) => ({
        total: 1,
        rows: [{ ...PAYMENT_ROW, id: `pay-${offset}` }],
      }),
      ui_spendPerDay: () => [],
      // A node that never answers (offline, rate-limited): the pass never ends.
      ui_checkSettlements: () => new Promise<null>(() => undefined),
      ui_spendBy: () => ({ sites: [], receivers: [] }),
    });
    render(<HistoryPanel />);
    expect(await screen.findByText("1 payment")).toBeTruthy();
  });

  it("writes the count and each payment's time in the browser's language and time zone", async () => {
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
    vi.stubEnv("TZ", "Asia/Tokyo");
    installFakeBackground({
      ui_listPayments: () => ({
        total: 100_000,
        rows: [{ ...PAYMENT_ROW, id: "pay-0", createdAt: Date.UTC(2025, 2, 1, 23, 30, 5) }],
      }),
      ui_spendPerDay: () => [],
      ui_checkSettlements: () => null,
      ui_spendBy: () => ({ sites: [], receivers: [] }),
    });
    render(<HistoryPanel />);
    expect(await screen.findByText("100.000 payments")).toBeTruthy();
    // Already 2 March in Tokyo; the exact instant stays in the element.
    const time = await screen.findByText("02.03.25, 08:30:05");
    expect(time.tagName).toBe("TIME");
    expect(time.getAttribute("datetime")).toBe("2025-03-01T23:30:05.000Z");
  });

  it("starts the settlement pass, which writes, only once the first load's reads are answered", async () => {
    let answerTotals: (totals: { sites: []; receivers: [] }) => void = () => undefined;
    const calls = installFakeBackground({
      ui_listPayments: () => ({ total: 1, rows: [{ ...PAYMENT_ROW, id: "pay-0" }] }),
      ui_spendPerDay: () => [],
      ui_checkSettlements: () => null,
      // The totals per site read every payment: on a long history, seconds.
      ui_spendBy: () => new Promise((resolve) => (answerTotals = resolve)),
    });
    render(<HistoryPanel />);
    expect(await screen.findByText("1 payment")).toBeTruthy();
    expect(calls.map((c) => c.method)).not.toContain("ui_checkSettlements");
    answerTotals({ sites: [], receivers: [] });
    await vi.waitFor(() => expect(calls.map((c) => c.method)).toContain("ui_checkSettlements"));
  });
});
