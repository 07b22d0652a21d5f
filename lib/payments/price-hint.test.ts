import { describe, expect, it } from "vitest";
import { compareToHint, priceHint } from "./price-hint";

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

describe("compareToHint", () => {
  const hint = priceHint(report, "search");

  it("says a price is above or within the hint in the same currency, test money counted as its real one", () => {
    expect(compareToHint(hint, 5001n, "USD")).toBe("above");
    expect(compareToHint(hint, 5001n, "test USD")).toBe("above");
    expect(compareToHint(hint, 5000n, "USD")).toBe("within");
    expect(compareToHint(hint, 1n, "test USD")).toBe("within");
  });

  it("compares nothing it cannot: another currency, an estimate in words, no hint", () => {
    expect(compareToHint(hint, 1n, "EUR")).toBe("none");
    expect(compareToHint(priceHint(report, "vague"), 1n, "USD")).toBe("none");
    expect(compareToHint(undefined, 1n, "USD")).toBe("none");
  });
});
