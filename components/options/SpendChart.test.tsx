// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SpendChart } from "./SpendChart";

describe("SpendChart", () => {
  afterEach(cleanup);
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
    const chart = screen.getByRole("img", { name: "Spend per day in USD, last 3 days" });
    const bars = [...chart.querySelectorAll("rect")];
    expect(bars.map((b) => b.getAttribute("data-day"))).toEqual([
      "2025-03-01",
      "2025-03-02",
      "2025-03-03",
    ]);
    expect(bars.map((b) => Number(b.getAttribute("height")))).toEqual([58, 0, 116]);
    expect(bars.map((b) => b.textContent)).toEqual([
      "2025-03-01: 0.5 USD",
      "2025-03-02: 0 USD",
      "2025-03-03: 1 USD",
    ]);
    const axes = [...chart.querySelectorAll("text")].map((label) => label.textContent);
    expect(axes).toEqual(["1 USD", "0", "Spent (USD)", "2025-03-01", "2025-03-03", "Day"]);
  });
});
