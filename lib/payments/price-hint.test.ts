import { describe, expect, it } from "vitest";
import { aboveHint, priceHint } from "./price-hint";

const report = {
  server: "https://mcp.example/mcp",
  tools: [
    { name: "search", pricing: { model: "per_call", estimate: "0.005 USD" } },
    { name: "vague", pricing: { estimate: "a few cents" } },
    { name: "free", pricing: undefined },
  ],
};

describe("priceHint", () => {
  it("reads a tool's estimate as micro units of its currency", () => {
    expect(priceHint(report, "search")).toEqual({
      estimate: "0.005 USD",
      model: "per_call",
      micro: 5000n,
      currency: "USD",
    });
  });

  it("keeps an estimate it cannot read as words only, and has none for unknown tools", () => {
    expect(priceHint(report, "vague")).toEqual({ estimate: "a few cents" });
    expect(priceHint(report, "free")).toBeUndefined();
    expect(priceHint(report, "other")).toBeUndefined();
    expect(priceHint(undefined, "search")).toBeUndefined();
  });
});

describe("aboveHint", () => {
  const hint = priceHint(report, "search");

  it("flags a price above the hint in the same currency, test money counted as its real one", () => {
    expect(aboveHint(hint, 5001n, "USD")).toBe(true);
    expect(aboveHint(hint, 5001n, "test USD")).toBe(true);
    expect(aboveHint(hint, 5000n, "USD")).toBe(false);
  });

  it("compares nothing it cannot: another currency, or an estimate in words", () => {
    expect(aboveHint(hint, 10n ** 9n, "EUR")).toBe(false);
    expect(aboveHint(priceHint(report, "vague"), 10n ** 9n, "USD")).toBe(false);
  });
});
