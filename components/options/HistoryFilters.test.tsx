// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HistoryFilters } from "./HistoryFilters";

function setup() {
  const onFilter = vi.fn();
  render(<HistoryFilters onFilter={onFilter} />);
  const type = (label: string, value: string) =>
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  return { onFilter, type };
}

describe("HistoryFilters", () => {
  afterEach(cleanup);

  it("turns each field into its PaymentFilter entry, keeping the others", () => {
    const { onFilter, type } = setup();
    type("Origin", "https://agent.example");
    expect(onFilter).toHaveBeenLastCalledWith({ origin: "https://agent.example" });
    type("Receiver", "did:web:api.example");
    expect(onFilter).toHaveBeenLastCalledWith({
      origin: "https://agent.example",
      receiver: "did:web:api.example",
    });
    type("State", "failed");
    expect(onFilter).toHaveBeenLastCalledWith({
      origin: "https://agent.example",
      receiver: "did:web:api.example",
      state: "failed",
    });
    type("Origin", "");
    type("State", "");
    expect(onFilter).toHaveBeenLastCalledWith({ receiver: "did:web:api.example" });
  });

  it("searches text", () => {
    const { onFilter, type } = setup();
    type("Search payments", "  forecast ");
    expect(onFilter).toHaveBeenLastCalledWith({ text: "forecast" });
  });

  it("filters a date range, whole days in UTC", () => {
    const { onFilter, type } = setup();
    type("From", "2025-03-01");
    expect(onFilter).toHaveBeenLastCalledWith({ from: Date.UTC(2025, 2, 1) });
    type("To", "2025-03-31");
    expect(onFilter).toHaveBeenLastCalledWith({
      from: Date.UTC(2025, 2, 1),
      to: Date.UTC(2025, 3, 1) - 1,
    });
  });
});
