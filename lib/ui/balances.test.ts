import { describe, expect, it } from "vitest";
import { balanceRow } from "../../tests/unit-support/ui/fixtures";
import { summarizeBalances } from "./balances";

const row = balanceRow;

describe("summarizeBalances", () => {
  it("totals what can still be spent per currency, exactly, across decimals", () => {
    const summary = summarizeBalances([
      row({ amount: "2500000", pending: "10000" }),
      row({
        network: "eip155:1",
        networkName: "Ethereum",
        decimals: 18,
        amount: "1000000000000000001",
      }),
      row({ network: "eip155:8453", networkName: "Base", problem: "Could not read the balance" }),
      row({ symbol: "XYZ", currency: undefined, amount: "5", pending: "9" }),
    ]);
    expect(summary.totals).toEqual([{ currency: "USD", available: "3.490000000000000001" }]);
    expect(summary.read.map((r) => r.available)).toEqual(["2490000", "1000000000000000001", "0"]);
    expect(summary.unread.map((r) => r.networkName)).toEqual(["Base"]);
  });

  it("stops each token's available at zero before the total: one token's pending never eats another's", () => {
    const summary = summarizeBalances([
      // Base: 1 USDC on chain, 3 USDC signed away and not yet collected (they cannot all be).
      row({
        network: "eip155:8453",
        networkName: "Base",
        testnet: false,
        amount: "1000000",
        pending: "3000000",
      }),
      row({ network: "eip155:137", networkName: "Polygon", testnet: false, amount: "5000000" }),
    ]);
    // The rows say Base 0 and Polygon 5 can be spent, so the total is 5 USD, not 5 + (1 - 3) = 3.
    expect(summary.read.map((r) => r.available)).toEqual(["0", "5000000"]);
    expect(summary.totals).toEqual([{ currency: "USD", available: "5" }]);
  });
});
