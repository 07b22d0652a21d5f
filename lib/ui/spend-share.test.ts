import { describe, expect, it } from "vitest";
import { spendShare } from "./spend-share";

describe("spendShare", () => {
  it("is the whole percent of the cap spent, capped at 100, and absent without a cap", () => {
    expect(spendShare("0", "5000000")).toBe(0);
    expect(spendShare("1250000", "5000000")).toBe(25);
    expect(spendShare("4999999", "5000000")).toBe(99);
    expect(spendShare("9000000", "5000000")).toBe(100);
    expect(spendShare("1", "0")).toBe(100);
    expect(spendShare("1", undefined)).toBeUndefined();
  });
});
