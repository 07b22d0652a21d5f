// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { SpendTotals } from "./SpendTotals";

describe("SpendTotals", () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });
  it("switches between day, week and month totals", () => {
    render(
      <SpendTotals
        spend={[
          { day: "2025-03-03", currency: "USD", amount: "250000" },
          { day: "2025-03-04", currency: "USD", amount: "750000" },
          { day: "2025-04-01", currency: "USD", amount: "1" },
        ]}
      />,
    );
    const rows = () =>
      screen
        .getAllByRole("row")
        .slice(1)
        .map((r) => r.textContent);
    expect(rows()).toEqual([
      "Apr 1, 20250.000001 USD",
      "Mar 4, 20250.75 USD",
      "Mar 3, 20250.25 USD",
    ]);
    fireEvent.change(screen.getByLabelText("Totals per"), { target: { value: "month" } });
    // The days given start on March 3: March's total says so.
    expect(rows()).toEqual([
      "April 20250.000001 USD",
      "March 2025 (counted from Mar 3, 2025)1 USD",
    ]);
    fireEvent.change(screen.getByLabelText("Totals per"), { target: { value: "week" } });
    expect(rows()).toEqual(["Mar 31, 20250.000001 USD", "Mar 3, 20251 USD"]);
  });

  it("writes the UTC periods in the browser's language and says they are UTC", () => {
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("ja");
    render(<SpendTotals spend={[{ day: "2025-03-03", currency: "USD", amount: "250000" }]} />);
    const rows = () => screen.getAllByRole("row").map((r) => r.textContent);
    expect(rows()).toEqual(["Day (UTC)Spent", "2025/03/030.25 USD"]);
    expect(screen.getByText("2025/03/03").getAttribute("datetime")).toBe("2025-03-03");
    fireEvent.change(screen.getByLabelText("Totals per"), { target: { value: "month" } });
    expect(rows()).toEqual(["Month (UTC)Spent", "2025年3月 (counted from 2025/03/03)0.25 USD"]);
  });
});
