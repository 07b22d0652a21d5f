import { describe, expect, it } from "vitest";
import { notPaidOnce } from "./soak";

describe("notPaidOnce", () => {
  it("names every id paid twice or never", () => {
    const gaps = new Map([
      ["0", { paidArrivals: 1 }],
      ["1", { paidArrivals: 2 }],
      ["3", { paidArrivals: 1 }],
    ]);
    expect(notPaidOnce(gaps, 4)).toEqual(["1 (2x)", "2 (0x)"]);
    expect(notPaidOnce(gaps, 1)).toEqual([]);
  });
});
