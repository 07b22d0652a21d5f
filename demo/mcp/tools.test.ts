import { describe, expect, it } from "vitest";
import { PRICING_META, stipendexPrice, toolList } from "./tools";

describe("toolList", () => {
  it("lists one free tool and the paid ones, each with a price hint", () => {
    expect(toolList().map((t) => t.name)).toEqual([
      "server_time",
      "web_search",
      "deep_research",
      "surge_search",
      "x402_search",
      "confirmed_search",
    ]);
    for (const tool of toolList()) expect(tool._meta?.[PRICING_META]).toBeDefined();
  });
});

describe("stipendexPrice", () => {
  it("prices per call, per page (clamped to 1..10), and nothing for free or x402 tools", () => {
    expect(stipendexPrice("web_search", {})).toBe(5000n);
    expect(stipendexPrice("surge_search", {})).toBe(20000n);
    expect(stipendexPrice("deep_research", { pages: 3 })).toBe(6000n);
    expect(stipendexPrice("deep_research", { pages: 99 })).toBe(20000n);
    expect(stipendexPrice("deep_research", { pages: "x" })).toBe(2000n);
    expect(stipendexPrice("server_time", {})).toBeUndefined();
    expect(stipendexPrice("x402_search", {})).toBeUndefined();
  });
});
