import { describe, expect, it, vi } from "vitest";
import { EMPTY_FILTER_FORM, toPaymentFilter } from "./history-filter";
import { formatDateTime } from "./locale-format";

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
  it("turns a date range into milliseconds of local days, the whole last day included", () => {
    const filter = toPaymentFilter({
      ...EMPTY_FILTER_FORM,
      fromDate: "2025-03-01",
      toDate: "2025-03-02",
    });
    expect(filter.from).toBe(new Date(2025, 2, 1).getTime());
    expect(filter.to).toBe(new Date(2025, 2, 3).getTime() - 1);
  });
  // The list shows local times: a payment it dates 1 March is in a filter of 1 March.
  it("keeps a payment made in the evening of the day chosen, west of UTC", () => {
    vi.stubEnv("TZ", "America/Los_Angeles");
    try {
      const paidAt = Date.UTC(2025, 2, 2, 4);
      expect(formatDateTime(paidAt, "en-US")).toBe("3/1/25, 8:00:00 PM");
      const day = { ...EMPTY_FILTER_FORM, fromDate: "2025-03-01", toDate: "2025-03-01" };
      const { from, to } = toPaymentFilter(day);
      expect([from, to]).toEqual([Date.UTC(2025, 2, 1, 8), Date.UTC(2025, 2, 2, 8) - 1]);
      // The day clocks move forward is 23 hours long.
      const spring = toPaymentFilter({ ...day, fromDate: "2025-03-09", toDate: "2025-03-09" });
      expect(((spring.to ?? 0) + 1 - (spring.from ?? 0)) / 3_600_000).toBe(23);
    } finally {
      vi.unstubAllEnvs();
    }
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
