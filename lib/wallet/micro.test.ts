import { describe, expect, it } from "vitest";
import { formatMicro, toMicro } from "./micro";

describe("toMicro", () => {
  it("keeps 6-decimal amounts as they are", () => {
    expect(toMicro(5000n, 6)).toBe(5000n);
  });

  it("scales up fewer decimals exactly", () => {
    expect(toMicro(25n, 2)).toBe(250_000n);
    expect(toMicro(1n, 0)).toBe(1_000_000n);
  });

  it("scales down more decimals, rounding up any remainder", () => {
    expect(toMicro(1_000_000_000_000_000_000n, 18)).toBe(1_000_000n);
    expect(toMicro(1_000_000_000_001n, 18)).toBe(2n);
    expect(toMicro(1n, 18)).toBe(1n);
    expect(toMicro(0n, 18)).toBe(0n);
  });
});

describe("formatMicro", () => {
  it("writes micro units as a decimal amount with the currency", () => {
    expect(formatMicro(1_250_000n, "USD")).toBe("1.25 USD");
    expect(formatMicro(5000n, "USD")).toBe("0.005 USD");
    expect(formatMicro(3_000_000n, "EUR")).toBe("3 EUR");
    expect(formatMicro(0n, "USD")).toBe("0 USD");
    expect(formatMicro(-1n, "USD")).toBe("-0.000001 USD");
  });
});
