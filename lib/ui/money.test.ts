import { describe, expect, it } from "vitest";
import type { DisplayAmount } from "../messages";
import { inputToMicro, microToInput, showAmount, showMicro } from "./money";

const usdc: DisplayAmount = {
  atomic: "5000",
  decimals: 6,
  symbol: "USDC",
  formatted: "0.005",
  network: "eip155:84532",
  networkName: "Base Sepolia",
  testnet: true,
};

describe("money display", () => {
  it("shows micro amounts with their currency", () => {
    expect(showMicro("1250000", "USD")).toBe("1.25 USD");
    expect(showMicro("0", "EUR")).toBe("0 EUR");
  });
  it("round-trips the editable form", () => {
    expect(microToInput("1250000")).toBe("1.25");
    expect(inputToMicro(" 1.25 ", "Daily cap")).toBe("1250000");
    expect(inputToMicro("3", "Daily cap")).toBe("3000000");
  });
  it("refuses input that is not an exact 6-decimal amount", () => {
    expect(() => inputToMicro("1.0000001", "Daily cap")).toThrow(
      expect.objectContaining({ name: "UiError", code: "invalid-money-input" }),
    );
    expect(() => inputToMicro("abc", "Daily cap")).toThrow(/Daily cap must be an amount/);
    expect(() => inputToMicro("-1", "Daily cap")).toThrow(
      expect.objectContaining({ name: "UiError", code: "invalid-money-input" }),
    );
  });
  it("formats a payment from its atomic amount, not its claimed text", () => {
    expect(showAmount(usdc)).toBe("0.005 USDC");
    expect(showAmount({ ...usdc, formatted: "999", atomic: "1" })).toBe("0.000001 USDC");
    expect(
      showAmount({ ...usdc, atomic: "1000000000000000000", decimals: 18, symbol: "DAI" }),
    ).toBe("1 DAI");
  });
});
