import { describe, expect, it } from "vitest";
import { summarize } from "./stats";

describe("summarize", () => {
  it("takes the middle sample of an odd count and the nearest-rank p95, whatever the order", () => {
    const samples = [5, 1, 4, 2, 3];
    expect(summarize(samples)).toEqual({ iterations: 5, medianMs: 3, p95Ms: 5, minMs: 1 });
  });

  it("averages the two middle samples of an even count", () => {
    expect(summarize([4, 1, 3, 2]).medianMs).toBe(2.5);
  });

  it("puts p95 of 1..100 at 95 and of 1..200 at 190", () => {
    const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect(summarize(range(100)).p95Ms).toBe(95);
    expect(summarize(range(200)).p95Ms).toBe(190);
  });

  it("refuses an empty sample list", () => {
    expect(() => summarize([])).toThrow("at least one sample");
  });
});
