import { describe, expect, it } from "vitest";
import { minutesAndSeconds, priceValidity, roundedPeriod } from "./price-expiry";

describe("priceValidity", () => {
  it("counts whole seconds left, rounding up, and is expired from the expiry on", () => {
    expect(priceValidity(10_000, 0)).toEqual({ secondsLeft: 10, expired: false });
    expect(priceValidity(10_000, 9_001)).toEqual({ secondsLeft: 1, expired: false });
    expect(priceValidity(10_000, 10_000)).toEqual({ secondsLeft: 0, expired: true });
    expect(priceValidity(10_000, 99_000)).toEqual({ secondsLeft: 0, expired: true });
  });
});

describe("roundedPeriod", () => {
  it("reads in the largest unit that fits, rounding up, since it is shown as an upper bound", () => {
    expect(roundedPeriod(1)).toEqual({ unit: "seconds", count: 1 });
    expect(roundedPeriod(119)).toEqual({ unit: "seconds", count: 119 });
    expect(roundedPeriod(120)).toEqual({ unit: "minutes", count: 2 });
    expect(roundedPeriod(301)).toEqual({ unit: "minutes", count: 6 });
    expect(roundedPeriod(7_199)).toEqual({ unit: "minutes", count: 120 });
    expect(roundedPeriod(7_200)).toEqual({ unit: "hours", count: 2 });
    expect(roundedPeriod(86_400)).toEqual({ unit: "hours", count: 24 });
  });
});

describe("minutesAndSeconds", () => {
  it("writes minutes and two-digit seconds", () => {
    expect(minutesAndSeconds(272)).toBe("4:32");
    expect(minutesAndSeconds(600)).toBe("10:00");
    expect(minutesAndSeconds(5)).toBe("0:05");
  });
});
