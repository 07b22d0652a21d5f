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
});
