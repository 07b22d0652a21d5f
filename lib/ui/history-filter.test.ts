import { describe, expect, it } from "vitest";
import { EMPTY_FILTER_FORM, toPaymentFilter } from "./history-filter";

describe("toPaymentFilter", () => {
  it("leaves out empty fields", () => {
    expect(toPaymentFilter(EMPTY_FILTER_FORM)).toEqual({});
    expect(toPaymentFilter({ ...EMPTY_FILTER_FORM, origin: "  ", text: " " })).toEqual({});
  });
  it("trims text fields and keeps the state", () => {
    expect(
      toPaymentFilter({
        ...EMPTY_FILTER_FORM,
        origin: " https://agent.example ",
        receiver: "did:web:api.example",
        state: "settled",
        text: " weather ",
      }),
    ).toEqual({
      origin: "https://agent.example",
      receiver: "did:web:api.example",
      state: "settled",
      text: "weather",
    });
  });
  it("turns a date range into UTC milliseconds including the whole last day", () => {
    const filter = toPaymentFilter({
      ...EMPTY_FILTER_FORM,
      fromDate: "2025-03-01",
      toDate: "2025-03-02",
    });
    expect(filter.from).toBe(Date.UTC(2025, 2, 1));
    expect(filter.to).toBe(Date.UTC(2025, 2, 3) - 1);
  });
  it("refuses impossible dates", () => {
    expect(() => toPaymentFilter({ ...EMPTY_FILTER_FORM, fromDate: "2025-02-30" })).toThrow(
      expect.objectContaining({ name: "UiError", code: "invalid-date-input" }),
    );
    expect(() => toPaymentFilter({ ...EMPTY_FILTER_FORM, toDate: "yesterday" })).toThrow(
      /To must be a date/,
    );
  });
});
