import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { formatAmount } from "../protocol/rails/amount";
import { localeAmount, localeInput, parseLocaleAmount } from "./locale-amount";

afterEach(() => {
  vi.restoreAllMocks();
});

const LOCALES = ["en", "de", "fr", "es", "ja", "en-IN", "de-CH", "ar-EG", "hi-IN", "sv"];

describe("localeAmount", () => {
  it("groups and marks decimals the way the language does", () => {
    expect(localeAmount(123_450_000n, 5, "en")).toBe("1,234.5");
    expect(localeAmount(123_450_000n, 5, "de")).toBe("1.234,5");
    expect(localeAmount(123_450_000n, 5, "fr")).toBe("1\u202f234,5");
    expect(localeAmount(1_234_567_500_000n, 6, "en-IN")).toBe("12,34,567.5");
    expect(localeAmount(1_234_500n, 3, "ar-EG")).toBe("١٬٢٣٤٫٥");
  });
  it("uses the browser's UI language when not told", () => {
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
    expect(localeAmount(1_250_000n, 6)).toBe("1,25");
  });
  it("keeps every digit: no float, no rounding, past Intl's 20 fraction digits", () => {
    expect(localeAmount(1n, 6, "de")).toBe("0,000001");
    expect(localeAmount(9_007_199_254_740_993n, 0, "en")).toBe("9,007,199,254,740,993");
    expect(localeAmount(10n ** 30n + 1n, 30, "de")).toBe(`1,${"0".repeat(29)}1`);
    expect(localeAmount(10n ** 77n - 1n, 77, "en")).toBe(`0.${"9".repeat(77)}`);
    expect(localeAmount(0n, 18, "de")).toBe("0");
  });
  it("writes what Intl writes for the exact decimal string, where Intl can", () => {
    // ECMA-402 formats a numeric string exactly; the same text, without its 20-digit limit.
    const samples: [bigint, number][] = [
      [123_456_789_012_345_678_901n, 6],
      [5000n, 6],
      [1_000_000n, 6],
      [1n, 18],
      [98_765_432_100_000_000_001n, 20],
      [1_234_500_000n, 6],
      [-2000n, 6],
      [-1_234_500_000n, 6],
    ];
    for (const locale of LOCALES) {
      for (const [atomic, decimals] of samples) {
        const decimal = formatAmount(atomic, decimals) as Intl.StringNumericLiteral;
        const intl = new Intl.NumberFormat(locale, { maximumFractionDigits: 20 });
        expect(localeAmount(atomic, decimals, locale), `${locale} ${decimal}`).toBe(
          intl.format(decimal),
        );
      }
    }
  });
  it("writes a negative amount (a balance after a payment it cannot cover) with the language's minus", () => {
    expect(localeAmount(-2000n, 6, "en")).toBe("-0.002");
    expect(localeAmount(-1_234_500_000n, 6, "de")).toBe("-1.234,5");
    expect(localeAmount(-1_234_500_000n, 6, "sv")).toBe("−1 234,5");
  });
});

describe("localeInput and parseLocaleAmount", () => {
  it("edit with the language's decimal mark and no grouping", () => {
    expect(localeInput(1_234_500_000n, 6, "en")).toBe("1234.5");
    expect(localeInput(1_234_500_000n, 6, "de")).toBe("1234,5");
    expect(localeInput(1_234_500_000n, 6, "ar-EG")).toBe("١٢٣٤٫٥");
  });
  it("read back exactly what they wrote, in every language", () => {
    for (const locale of LOCALES) {
      for (const atomic of [0n, 1n, 10_000n, 1_234_500_000n, 10n ** 15n + 7n]) {
        expect(parseLocaleAmount(localeInput(atomic, 6, locale), 6, locale), locale).toBe(atomic);
      }
    }
  });
  it("take the language's decimal mark, and a '.' where the language does not group with it", () => {
    expect(parseLocaleAmount("1,25", 6, "de")).toBe(1_250_000n);
    expect(parseLocaleAmount("1,25", 6, "fr")).toBe(1_250_000n);
    expect(parseLocaleAmount("1.25", 6, "fr")).toBe(1_250_000n);
    expect(parseLocaleAmount(" 1.25 ", 6, "en")).toBe(1_250_000n);
    expect(parseLocaleAmount("١٫٢٥", 6, "ar-EG")).toBe(1_250_000n);
    expect(parseLocaleAmount("1.25", 6, "ar-EG")).toBe(1_250_000n);
  });
  it("refuse grouping and a mark the language groups with: never a thousandfold guess", () => {
    expect(() => parseLocaleAmount("1.500", 6, "de")).toThrow(/grouping separator/);
    expect(() => parseLocaleAmount("1.234,5", 6, "de")).toThrow(/grouping separator/);
    expect(() => parseLocaleAmount("1,500", 6, "en")).toThrow(/grouping separator/);
    expect(() => parseLocaleAmount("1\u202f234,5", 6, "fr")).toThrow(/grouping separator/);
    expect(() => parseLocaleAmount("1,2.5", 6, "fr")).toThrow(/not a decimal amount/);
  });
  it("refuse what parseAmount refuses", () => {
    expect(() => parseLocaleAmount("1,0000001", 6, "de")).toThrow(/more fraction digits/);
    expect(() => parseLocaleAmount("-1", 6, "de")).toThrow(/negative/);
    expect(() => parseLocaleAmount("abc", 6, "de")).toThrow(/not a decimal amount/);
  });
});
