import { describe, expect, it } from "vitest";
import { StipendexError } from "../../errors";
import { AbsurdAmountError, quote, UnknownAssetError } from "./errors";

describe("quote", () => {
  it("shows strings JSON-quoted and other values as JSON", () => {
    expect(quote("base")).toBe('"base"');
    expect(quote(10000)).toBe("10000");
    expect(quote({ a: 1 })).toBe('{"a":1}');
    expect(quote(undefined)).toBe("undefined");
  });

  it("bounds long values", () => {
    const text = quote("x".repeat(10_000));
    expect(text.length).toBe(80);
    expect(text.endsWith("...")).toBe(true);
  });

  it("survives values JSON cannot show", () => {
    expect(quote(10n)).toBe("10");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(quote(cyclic)).toBe("[object Object]");
  });
});

describe("rail errors", () => {
  it("are StipendexErrors with a code and a message naming the value", () => {
    const error = new UnknownAssetError("eip155:8453", "0xdead");
    expect(error).toBeInstanceOf(StipendexError);
    expect(error.code).toBe("unknown-asset");
    expect(error.message).toContain('"0xdead"');
    expect(error.message).toContain("eip155:8453");
    expect(new AbsurdAmountError("amount", 10n ** 20n, 6).message).toContain(
      "100000000000000000000",
    );
  });
});
