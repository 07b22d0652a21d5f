import { describe, expect, it } from "vitest";
import { clockOffset, clockStep } from "./clock-offset";

describe("clockOffset", () => {
  it("takes the midpoint of the shortest round trip, bounded by half of it", () => {
    const offset = clockOffset([
      { sentAt: 100, receiverAt: 1_104, receivedAt: 110 },
      { sentAt: 200, receiverAt: 1_201.5, receivedAt: 202 },
      { sentAt: 300, receiverAt: 1_303, receivedAt: 306 },
    ]);
    expect(offset).toEqual({ offsetMs: 1_000.5, boundMs: 1 });
  });

  it("puts a page time on the receiver's clock with a negative offset as well", () => {
    const { offsetMs, boundMs } = clockOffset([{ sentAt: 50, receiverAt: 40, receivedAt: 50 }]);
    expect(offsetMs).toBe(-10);
    expect(boundMs).toBe(0);
  });

  it("widens the bound by the page clock's resolution", () => {
    const pings = [{ sentAt: 10, receiverAt: 11, receivedAt: 11 }];
    expect(clockOffset(pings, 1)).toEqual({ offsetMs: 0.5, boundMs: 1.5 });
  });

  it("refuses no pings, and a ping back before it left", () => {
    expect(() => clockOffset([])).toThrow("at least one ping");
    expect(() => clockOffset([{ sentAt: 5, receiverAt: 5, receivedAt: 4 }])).toThrow(
      "before it was sent",
    );
  });
});

describe("clockStep", () => {
  it("is the smallest non-zero step between successive readings", () => {
    expect(clockStep([5, 5, 6, 6, 6, 7, 9])).toBe(1);
    expect(clockStep([0.1, 0.1, 0.2, 0.2])).toBeCloseTo(0.1, 12);
  });

  it("refuses a clock that never moved or went backwards", () => {
    expect(() => clockStep([3, 3, 3])).toThrow("never moved");
    expect(() => clockStep([3])).toThrow("never moved");
    expect(() => clockStep([3, 2])).toThrow("backwards");
  });
});
