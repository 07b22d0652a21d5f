import { describe, expect, it } from "vitest";
import { USDC_AS_USD, usdcOption } from "../../tests/unit-support/payments/offers";
import type { Offer } from "../protocol/offer";
import { NOT_MCP, serverContext } from "./server-context";

const option = usdcOption({ amount: 20_000n });
const mcpOffer = {
  resource: { kind: "mcp", server: "https://api.example/mcp", tool: "search", argsHash: "h" },
} as Offer;
const settings = USDC_AS_USD;

describe("serverContext", () => {
  it("is nothing for an HTTP price", () => {
    const http = { resource: { kind: "http", method: "GET", url: "https://a.example" } } as Offer;
    expect(serverContext(undefined, http, option, settings)).toBe(NOT_MCP);
  });

  it("finds the tool's announced price and says whether this price is above it", () => {
    const report = {
      server: "https://api.example/mcp",
      stipendexPayments: {},
      tools: [{ name: "search", pricing: { estimate: "0.005 USD" } }],
    };
    const context = serverContext(report, mcpOffer, option, settings);
    expect(context).toMatchObject({ mcp: true, report, againstHint: "above" });
    expect(context.hint).toBeDefined();
    const cheap = { ...option, amount: 5_000n };
    expect(serverContext(report, mcpOffer, cheap, settings).againstHint).toBe("within");
    expect(serverContext(undefined, mcpOffer, option, settings)).toEqual({
      mcp: true,
      againstHint: "none",
    });
  });
});
