import { describe, expect, it } from "vitest";
import { type BenchResult, formatReport, formatSection, formatTable, medianRatio } from "./report";

const stats = (medianMs: number) => ({
  iterations: 200,
  medianMs,
  p95Ms: medianMs * 2,
  minMs: medianMs / 2,
});
const results: BenchResult[] = [
  { name: "lib", stats: stats(1.5) },
  { name: "official", stats: stats(3) },
];
const ratio = { label: "lib vs official", numerator: "lib", denominator: "official" };

describe("medianRatio", () => {
  it("divides the numerator's median by the denominator's", () => {
    expect(medianRatio(results, ratio)).toBe(0.5);
  });

  it("names the missing bench when a ratio points at none", () => {
    expect(() => medianRatio(results, { ...ratio, denominator: "nope" })).toThrow(
      'ratio "lib vs official" names no bench called "nope"',
    );
  });
});

describe("formatReport", () => {
  it("prints a title, aligned rows with median/p95/min and the ratio lines", () => {
    expect(formatReport("x402", results, [ratio]).split("\n")).toEqual([
      "x402",
      "bench     iterations    median       p95       min",
      "lib              200  1.500 ms  3.000 ms  0.750 ms",
      "official         200  3.000 ms  6.000 ms  1.500 ms",
      "lib vs official: 0.50x (median lib / official)",
    ]);
  });
});

describe("formatTable", () => {
  it("pads the first column on the right and the others on the left", () => {
    expect(
      formatTable(
        ["file", "bytes"],
        [
          ["hook.js", "9764"],
          ["background.js", "363231"],
        ],
      ),
    ).toEqual(["file            bytes", "hook.js          9764", "background.js  363231"]);
  });
});

describe("formatSection", () => {
  it("prints a timings section like a suite, then its notes", () => {
    expect(
      formatSection({
        kind: "timings",
        title: "x402",
        results,
        ratios: [ratio],
        notes: ["loopback only"],
      }).split("\n"),
    ).toEqual([...formatReport("x402", results, [ratio]).split("\n"), "loopback only"]);
  });

  it("prints a table section under its title, then its notes", () => {
    expect(
      formatSection({
        kind: "table",
        title: "sizes",
        header: ["file", "bytes"],
        rows: [["a.js", "10"]],
        notes: ["hook share 1%"],
      }).split("\n"),
    ).toEqual(["sizes", "file  bytes", "a.js     10", "hook share 1%"]);
  });
});
