import { describe, expect, it } from "vitest";
import { visibleRange } from "./windowing";

describe("visibleRange", () => {
  it("renders the rows in view plus overscan at the top of the list", () => {
    expect(visibleRange(0, 400, 40, 100_000, 5)).toEqual({ start: 0, end: 16 });
  });
  it("follows the scroll position", () => {
    expect(visibleRange(40_000, 400, 40, 100_000, 5)).toEqual({ start: 995, end: 1016 });
  });
  it("stops at the end of the list", () => {
    expect(visibleRange(3_999_600, 400, 40, 100_000, 5)).toEqual({ start: 99_985, end: 100_000 });
    expect(visibleRange(0, 400, 40, 3, 5)).toEqual({ start: 0, end: 3 });
    expect(visibleRange(0, 400, 40, 0, 5)).toEqual({ start: 0, end: 0 });
  });
  it("clamps a stale scroll position beyond a list that shrank", () => {
    expect(visibleRange(10_000, 400, 40, 10, 2)).toEqual({ start: 8, end: 10 });
  });
});
