// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SpendTotals } from "./SpendTotals";

describe("SpendTotals", () => {
  afterEach(cleanup);
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
    expect(rows()).toEqual(["2025-04-010.000001 USD", "2025-03-040.75 USD", "2025-03-030.25 USD"]);
    fireEvent.change(screen.getByLabelText("Totals per"), { target: { value: "month" } });
    expect(rows()).toEqual(["2025-040.000001 USD", "2025-031 USD"]);
    fireEvent.change(screen.getByLabelText("Totals per"), { target: { value: "week" } });
    expect(rows()).toEqual(["2025-03-310.000001 USD", "2025-03-031 USD"]);
  });
});
