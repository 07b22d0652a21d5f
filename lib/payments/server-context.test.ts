import { describe, expect, it } from "vitest";
import type { Offer, PaymentOption } from "../protocol/offer";
import type { PolicySettings } from "../wallet/policy-settings";
import { NOT_MCP, serverContext } from "./server-context";

const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const option: PaymentOption = {
  scheme: "exact",
  network: "eip155:84532",
  chainId: 84532,
  asset: USDC,
  amount: 20_000n,
  decimals: 6,
  symbol: "USDC",
  payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
  maxTimeoutSeconds: 60,
  eip712: { name: "USDC", version: "2" },
  raw: {},
};
const mcpOffer = {
  resource: { kind: "mcp", server: "https://api.example/mcp", tool: "search", argsHash: "h" },
} as Offer;
const settings: PolicySettings = {
  globalCaps: {},
  origins: {},
  receivers: { allow: [], deny: [] },
  networks: ["eip155:84532"],
  assets: [{ network: "eip155:84532", asset: USDC, decimals: 6, symbol: "USDC", currency: "USD" }],
};

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
    expect(context).toMatchObject({ mcp: true, report, aboveHint: true });
    expect(context.hint).toBeDefined();
    const cheap = { ...option, amount: 5_000n };
    expect(serverContext(report, mcpOffer, cheap, settings).aboveHint).toBe(false);
    expect(serverContext(undefined, mcpOffer, option, settings)).toEqual({
      mcp: true,
      aboveHint: false,
    });
  });
});
