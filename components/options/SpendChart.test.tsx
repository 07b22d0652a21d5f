// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { SpendChart } from "./SpendChart";

describe("SpendChart", () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });
  it("draws one bar per day, scaled to the largest, with exact titles", () => {
    render(
      <SpendChart
        currency="USD"
        days={3}
        now={Date.UTC(2025, 2, 3, 15)}
        spend={[
          { day: "2025-03-01", currency: "USD", amount: "500000" },
          { day: "2025-03-03", currency: "USD", amount: "1000000" },
          { day: "2025-03-02", currency: "EUR", amount: "9000000" },
        ]}
      />,
    );
    const chart = screen.getByRole("img", { name: "Spend per UTC day in USD, last 3 days" });
    const bars = [...chart.querySelectorAll("rect")];
    expect(bars.map((b) => b.getAttribute("data-day"))).toEqual([
      "2025-03-01",
      "2025-03-02",
      "2025-03-03",
    ]);
    expect(bars.map((b) => Number(b.getAttribute("height")))).toEqual([58, 0, 116]);
    expect(bars.map((b) => b.textContent)).toEqual([
      "Mar 1, 2025: 0.5 USD",
      "Mar 2, 2025: 0 USD",
      "Mar 3, 2025: 1 USD",
    ]);
    const axes = [...chart.querySelectorAll("text")].map((label) => label.textContent);
    expect(axes).toEqual(["1 USD", "0", "Spent (USD)", "Mar 1, 2025", "Mar 3, 2025", "Day (UTC)"]);
  });

  it("ends at a later day the wallet already counts in, while this clock is set back", () => {
    render(
      <SpendChart
        currency="USD"
        days={2}
        now={Date.UTC(2026, 10, 30, 23, 59, 55)}
        spend={[
          { day: "2026-11-30", currency: "USD", amount: "7" },
          { day: "2026-12-01", currency: "USD", amount: "30" },
        ]}
      />,
    );
    const chart = screen.getByRole("img", { name: "Spend per UTC day in USD, last 2 days" });
    expect([...chart.querySelectorAll("rect")].map((b) => b.getAttribute("data-day"))).toEqual([
      "2026-11-30",
      "2026-12-01",
    ]);
  });

  it("labels the budgets' UTC days in the browser's language, whatever the time zone", () => {
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
    // 3 March 03:00 UTC is still the evening of 2 March in Los Angeles.
    vi.stubEnv("TZ", "America/Los_Angeles");
    render(
      <SpendChart
        currency="USD"
        days={2}
        now={Date.UTC(2025, 2, 3, 3)}
        spend={[{ day: "2025-03-03", currency: "USD", amount: "1000000" }]}
      />,
    );
    const chart = screen.getByRole("img", { name: "Spend per UTC day in USD, last 2 days" });
    expect([...chart.querySelectorAll("rect")].map((b) => b.textContent)).toEqual([
      "02.03.2025: 0 USD",
      "03.03.2025: 1 USD",
    ]);
    const axes = [...chart.querySelectorAll("text")].map((label) => label.textContent);
    expect(axes.slice(3)).toEqual(["02.03.2025", "03.03.2025", "Day (UTC)"]);
  });
});
