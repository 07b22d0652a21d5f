import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StipendexError } from "../../errors";
import { assertSaneAmount, formatAmount, parseAmount, parseAtomicAmount } from "./amount";

describe("formatAmount", () => {
  it.each([
    [10000n, 6, "0.01"],
    [1000000n, 6, "1"],
    [1n, 6, "0.000001"],
    [0n, 6, "0"],
    [1234567n, 6, "1.234567"],
    [1500000n, 6, "1.5"],
    [5n, 0, "5"],
    [10n ** 18n, 18, "1"],
    [-10000n, 6, "-0.01"],
    [123456789012345678901234567890n, 6, "123456789012345678901234.56789"],
  ])("%s with %i decimals is %s", (atomic, decimals, text) => {
    expect(formatAmount(atomic, decimals)).toBe(text);
  });
});

describe("parseAmount", () => {
  it.each([
    ["0.01", 6, 10000n],
    ["1", 6, 1000000n],
    ["0.000001", 6, 1n],
    ["1.50", 6, 1500000n],
    ["007", 2, 700n],
    ["3", 0, 3n],
  ])("%s with %i decimals is %s", (text, decimals, atomic) => {
    expect(parseAmount(text, decimals)).toBe(atomic);
  });

  it.each([
    ["0.0000001", 6, "amount-precision"],
    ["1.5", 0, "amount-precision"],
    ["-1", 6, "negative-amount"],
    [" -0.5", 6, "negative-amount"],
    ["", 6, "amount-syntax"],
    ["1.", 6, "amount-syntax"],
    [".5", 6, "amount-syntax"],
    ["1e6", 6, "amount-syntax"],
    ["1,5", 6, "amount-syntax"],
    ["0x10", 6, "amount-syntax"],
    [" 1", 6, "amount-syntax"],
    ["+1", 6, "amount-syntax"],
    ["NaN", 6, "amount-syntax"],
    ["１", 6, "amount-syntax"],
  ])("refuses %j (%i decimals) with %s", (text, decimals, code) => {
    expect(() => parseAmount(text, decimals)).toThrow(expect.objectContaining({ code }));
  });

  it("round-trips with formatAmount for any non-negative amount", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 40n }),
        fc.integer({ min: 0, max: 30 }),
        (a, d) => {
          expect(parseAmount(formatAmount(a, d), d)).toBe(a);
        },
      ),
    );
  });

  it("never crashes on junk: a named error or a bigint", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 18 }), (text, d) => {
        try {
          expect(typeof parseAmount(text, d)).toBe("bigint");
        } catch (error) {
          expect(error).toBeInstanceOf(StipendexError);
        }
      }),
    );
  });
});

describe("parseAtomicAmount", () => {
  it("reads digit strings exactly", () => {
    expect(parseAtomicAmount("10000", "amount")).toBe(10000n);
    expect(
      parseAtomicAmount(
        "115792089237316195423570985008687907853269984665640564039457584007913129639935",
        "amount",
      ),
    ).toBe(2n ** 256n - 1n);
  });

  it.each([
    [10000, "amount-not-integer"],
    ["0.01", "amount-not-integer"],
    ["1e4", "amount-not-integer"],
    ["", "amount-not-integer"],
    [" 10000", "amount-not-integer"],
    [null, "amount-not-integer"],
    ["1".repeat(79), "amount-not-integer"],
    ["-5", "negative-amount"],
    [-5, "negative-amount"],
  ])("refuses %j with %s and names the field", (value, code) => {
    expect(() => parseAtomicAmount(value, "accepts[0].amount")).toThrow(
      expect.objectContaining({ code, message: expect.stringContaining("accepts[0].amount") }),
    );
  });
});

describe("assertSaneAmount", () => {
  it("accepts a cent and exactly a billion units", () => {
    expect(() => assertSaneAmount(10000n, 6)).not.toThrow();
    expect(() => assertSaneAmount(10n ** 15n, 6)).not.toThrow();
  });

  it.each([
    [0n, 6, "zero-amount"],
    [-1n, 6, "negative-amount"],
    [10n ** 15n + 1n, 6, "absurd-amount"],
    [10n ** 27n + 1n, 18, "absurd-amount"],
  ])("refuses %s with %i decimals (%s)", (atomic, decimals, code) => {
    expect(() => assertSaneAmount(atomic, decimals)).toThrow(expect.objectContaining({ code }));
  });
});
