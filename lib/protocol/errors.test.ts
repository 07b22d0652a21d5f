import { describe, expect, it } from "vitest";
import { StipendexError } from "../errors";
import { isProtocolError, ProtocolError, quote } from "./errors";
import { assertSaneAmount } from "./rails/amount";
import { createRegistry } from "./rails/registry";

describe("ProtocolError", () => {
  it("is a StipendexError with its code, message and cause", () => {
    const cause = new TypeError("boom");
    const error = new ProtocolError("bad-signature", "Quote signature does not verify", { cause });
    expect(error).toBeInstanceOf(StipendexError);
    expect(error).toMatchObject({
      name: "ProtocolError",
      code: "bad-signature",
      message: "Quote signature does not verify",
      cause,
    });
  });

  it("isProtocolError matches any ProtocolError, or only the codes given", () => {
    const expired = new ProtocolError("expired", "x");
    expect(isProtocolError(expired)).toBe(true);
    expect(isProtocolError(expired, "expired")).toBe(true);
    expect(isProtocolError(expired, "bad-signature", "expired")).toBe(true);
    expect(isProtocolError(expired, "bad-signature")).toBe(false);
    expect(isProtocolError(new StipendexError("expired", "x"))).toBe(false);
    expect(isProtocolError({ name: "ProtocolError", code: "expired" })).toBe(false);
  });

  it("messages name the value and where it was", () => {
    const base = createRegistry().network("eip155:8453");
    expect(() => createRegistry().token(base, "0xdead")).toThrow(
      expect.objectContaining({
        code: "unknown-asset",
        message: 'unknown asset "0xdead" on eip155:8453: no token with that address',
      }),
    );
    expect(() => assertSaneAmount(10n ** 20n, 6)).toThrow("amount 100000000000000000000");
  });
});

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
