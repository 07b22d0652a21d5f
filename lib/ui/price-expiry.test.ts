import { describe, expect, it } from "vitest";
import { minutesAndSeconds, priceValidity } from "./price-expiry";

describe("priceValidity", () => {
  it("counts whole seconds left, rounding up, and is expired from the expiry on", () => {
    expect(priceValidity(10_000, 0)).toEqual({ secondsLeft: 10, expired: false });
    expect(priceValidity(10_000, 9_001)).toEqual({ secondsLeft: 1, expired: false });
    expect(priceValidity(10_000, 10_000)).toEqual({ secondsLeft: 0, expired: true });
    expect(priceValidity(10_000, 99_000)).toEqual({ secondsLeft: 0, expired: true });
  });
});

describe("minutesAndSeconds", () => {
  it("writes minutes and two-digit seconds", () => {
    expect(minutesAndSeconds(272)).toBe("4:32");
    expect(minutesAndSeconds(600)).toBe("10:00");
    expect(minutesAndSeconds(5)).toBe("0:05");
  });
});
