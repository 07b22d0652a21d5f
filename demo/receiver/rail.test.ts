import { describe, expect, it } from "vitest";
import { descriptorRail, displayTotal, quoteRail } from "./rail";
import { TEST_RAIL } from "./test-fixtures";

const rail = TEST_RAIL;

describe("rail", () => {
  it("quoteRail writes the amount as an atomic decimal string with the EIP-712 domain in extra", () => {
    expect(quoteRail(rail, 5000n)).toEqual({
      rail: "x402-exact",
      network: "eip155:84532",
      asset: rail.asset,
      amount: "5000",
      decimals: 6,
      symbol: "USDC",
      payTo: rail.payTo,
      maxTimeoutSeconds: 60,
      extra: { name: "USDC", version: "2" },
    });
  });
  it("descriptorRail drops the price", () => {
    expect(descriptorRail(rail)).toEqual({
      rail: "x402-exact",
      network: "eip155:84532",
      asset: rail.asset,
      payTo: rail.payTo,
    });
  });
  it("displayTotal is amount / 10^decimals exactly", () => {
    expect(displayTotal(rail, 5000n)).toEqual({ amount: "0.005", currency: "USD" });
    expect(displayTotal(rail, 12_000_000n)).toEqual({ amount: "12", currency: "USD" });
  });
});
