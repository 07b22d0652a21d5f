import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
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

afterEach(() => {
  vi.restoreAllMocks();
});

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

describe("money in the person's language", () => {
  const german = () => vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
  it("groups digits and marks decimals as the language does", () => {
    expect(showMicro("1234500000", "USD")).toBe("1,234.5 USD");
    expect(showAmount({ ...usdc, atomic: "1234500000" })).toBe("1,234.5 USDC");
    german();
    expect(showMicro("1234500000", "USD")).toBe("1.234,5 USD");
    expect(showAmount({ ...usdc, atomic: "1234500000" })).toBe("1.234,5 USDC");
  });
  it("still shows every digit of a price, never rounded down", () => {
    german();
    expect(showAmount({ ...usdc, atomic: "1", decimals: 18, symbol: "DAI" })).toBe(
      `0,${"0".repeat(17)}1 DAI`,
    );
  });
  it("edits with the language's decimal mark and reads it back exactly", () => {
    german();
    expect(microToInput("1234500000")).toBe("1234,5");
    expect(inputToMicro("1234,5", "Daily cap")).toBe("1234500000");
  });
  it("refuses a grouping mark in what was typed, and shows an example the language writes", () => {
    german();
    // German groups with ".": "1.500" is fifteen hundred to a German reader, one and a half to others.
    expect(() => inputToMicro("1.500", "Daily cap")).toThrow(
      'Daily cap must be an amount like 1,25 with at most 6 decimals, got "1.500"',
    );
    vi.restoreAllMocks();
    expect(() => inputToMicro("1,500", "Daily cap")).toThrow(
      'Daily cap must be an amount like 1.25 with at most 6 decimals, got "1,500"',
    );
  });
});
