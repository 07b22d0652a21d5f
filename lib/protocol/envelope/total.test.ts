import { describe, expect, it } from "vitest";
import { RAIL } from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import type { ProtocolErrorCode } from "../errors";
import { assertTotalMatchesRails } from "./total";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

describe("assertTotalMatchesRails", () => {
  it.each(["0.005", "0.0050", "00.005"])(
    "accepts %s USD for 5000 atomic USDC (6 decimals)",
    (amount) => {
      expect(() => assertTotalMatchesRails({ amount, currency: "USD" }, [RAIL])).not.toThrow();
    },
  );

  it.each([
    [
      "10000 meant as 0.01",
      { amount: "10000", currency: "USD" },
      { ...RAIL, amount: "10000", symbol: "USDT0" },
    ],
    ["off by one atomic unit", { amount: "0.005", currency: "USD" }, { ...RAIL, amount: "5001" }],
    ["wrong currency", { amount: "0.005", currency: "EUR" }, RAIL],
    ["more precision than decimals", { amount: "0.0050001", currency: "USD" }, RAIL],
  ])("refuses %s", (_label, total, rail) => {
    expect(() => assertTotalMatchesRails(total, [rail])).toThrow(refused("total-mismatch"));
  });

  it("leaves non-stablecoin rails to the registry and handles whole units", () => {
    expect(() =>
      assertTotalMatchesRails({ amount: "3", currency: "USD" }, [{ ...RAIL, symbol: "WETH" }]),
    ).not.toThrow();
    expect(() =>
      assertTotalMatchesRails({ amount: "12", currency: "USD" }, [{ ...RAIL, amount: "12000000" }]),
    ).not.toThrow();
    expect(() =>
      assertTotalMatchesRails({ amount: "0", currency: "USD" }, [{ ...RAIL, amount: "0" }]),
    ).not.toThrow();
  });
});
