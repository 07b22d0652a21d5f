import { describe, expect, it } from "vitest";
import { totalsByPeriod } from "./period-totals";

const days = [
  { day: "2025-03-02", currency: "USD", amount: "1000000" }, // Sunday
  { day: "2025-03-03", currency: "USD", amount: "250000" }, // Monday
  { day: "2025-03-03", currency: "EUR", amount: "5" },
  { day: "2025-03-31", currency: "USD", amount: "1" },
  { day: "2025-04-01", currency: "USD", amount: "2" },
];

describe("totalsByPeriod", () => {
  it("keeps days, newest first, one line per currency", () => {
    expect(totalsByPeriod(days, "day").map((t) => `${t.period} ${t.currency} ${t.amount}`)).toEqual(
      [
        "2025-04-01 USD 2",
        "2025-03-31 USD 1",
        "2025-03-03 EUR 5",
        "2025-03-03 USD 250000",
        "2025-03-02 USD 1000000",
      ],
    );
  });
  it("groups by ISO week starting on Monday, saying from which day one begun before the days given counts", () => {
    expect(totalsByPeriod(days, "week")).toEqual([
      { period: "2025-03-31", currency: "USD", amount: "3" },
      { period: "2025-03-03", currency: "EUR", amount: "5" },
      { period: "2025-03-03", currency: "USD", amount: "250000" },
      { period: "2025-02-24", currency: "USD", amount: "1000000", since: "2025-03-02" },
    ]);
  });

  it("says a month counts from the first day given when it began before it", () => {
    const window = [
      { day: "2026-02-13", currency: "USD", amount: "16000000" },
      { day: "2026-03-01", currency: "USD", amount: "1" },
    ];
    expect(totalsByPeriod(window, "month")).toEqual([
      { period: "2026-03", currency: "USD", amount: "1" },
      { period: "2026-02", currency: "USD", amount: "16000000", since: "2026-02-13" },
    ]);
    expect(totalsByPeriod(window, "day").every((total) => total.since === undefined)).toBe(true);
  });
  it("groups by month with exact bigint sums", () => {
    const big = [
      { day: "2025-03-01", currency: "USD", amount: "9007199254740993" },
      { day: "2025-03-09", currency: "USD", amount: "1" },
    ];
    expect(totalsByPeriod(big, "month")).toEqual([
      { period: "2025-03", currency: "USD", amount: "9007199254740994" },
    ]);
  });
  it("leaves out periods with nothing spent, as the background's zero-filled days", () => {
    const zeroFilled = [
      { day: "2025-03-01", currency: "USD", amount: "0" },
      { day: "2025-03-02", currency: "USD", amount: "7" },
      { day: "2025-04-01", currency: "USD", amount: "0" },
    ];
    expect(totalsByPeriod(zeroFilled, "day")).toEqual([
      { period: "2025-03-02", currency: "USD", amount: "7" },
    ]);
    expect(totalsByPeriod(zeroFilled, "month")).toEqual([
      { period: "2025-03", currency: "USD", amount: "7" },
    ]);
    expect(totalsByPeriod(zeroFilled.slice(0, 1), "week")).toEqual([]);
  });
});
