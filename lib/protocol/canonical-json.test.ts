import { describe, expect, it } from "vitest";
import { argsHash, canonicalize, sha256Base64url } from "./canonical-json";
import type { ProtocolErrorCode } from "./errors";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe("canonicalize: RFC 8785 published examples", () => {
  it("§3.2.2 main example", () => {
    const input = String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`;
    expect(canonicalize(JSON.parse(input))).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it("§3.2.3 sorts keys by UTF-16 code units", () => {
    const input = String.raw`{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`;
    expect(canonicalize(JSON.parse(input))).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it.each([
    ["0000000000000000", "0"],
    ["8000000000000000", "0"],
    ["0000000000000001", "5e-324"],
    ["8000000000000001", "-5e-324"],
    ["7fefffffffffffff", "1.7976931348623157e+308"],
    ["ffefffffffffffff", "-1.7976931348623157e+308"],
    ["4340000000000000", "9007199254740992"],
    ["c340000000000000", "-9007199254740992"],
    ["4430000000000000", "295147905179352830000"],
    ["44b52d02c7e14af5", "9.999999999999997e+22"],
    ["44b52d02c7e14af6", "1e+23"],
    ["44b52d02c7e14af7", "1.0000000000000001e+23"],
    ["444b1ae4d6e2ef4e", "999999999999999700000"],
    ["444b1ae4d6e2ef4f", "999999999999999900000"],
    ["444b1ae4d6e2ef50", "1e+21"],
    ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
    ["3eb0c6f7a0b5ed8d", "0.000001"],
    ["41b3de4355555553", "333333333.3333332"],
    ["41b3de4355555554", "333333333.33333325"],
    ["41b3de4355555555", "333333333.3333333"],
    ["41b3de4355555556", "333333333.3333334"],
    ["41b3de4355555557", "333333333.33333343"],
    ["becbf647612f3696", "-0.0000033333333333333333"],
    ["43143ff3c1cb0959", "1424953923781206.2"],
  ])("Appendix B number %s serializes as %s", (bits, expected) => {
    expect(canonicalize(fromBits(bits))).toBe(expected);
  });

  it.each(["7fffffffffffffff", "7ff0000000000000"])(
    "Appendix B %s (NaN/Infinity) is refused",
    (bits) => {
      expect(() => canonicalize([fromBits(bits)])).toThrow(refused("non-finite-number"));
    },
  );
});

describe("canonicalize: refusals and details", () => {
  it("drops undefined members like JSON.stringify and nests sorted", () => {
    expect(canonicalize({ b: [1, { d: 1, c: 2 }], a: undefined, "": "x" })).toBe(
      '{"":"x","b":[1,{"c":2,"d":1}]}',
    );
  });

  it("accepts shared (non-cyclic) references", () => {
    const shared = { x: 1 };
    expect(canonicalize([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it.each([
    ["undefined in an array", [1, undefined]],
    ["bigint", { a: 1n }],
    ["function", { f: () => 1 }],
    ["symbol", [Symbol("s")]],
    ["top-level undefined", undefined],
    ["Date", { d: new Date(0) }],
    ["Map", new Map()],
  ])("refuses %s", (_label, value) => {
    expect(() => canonicalize(value)).toThrow(refused("unsupported-json-value"));
  });

  it("refuses cycles and names the path", () => {
    const a: Record<string, unknown> = { x: [1] };
    (a.x as unknown[]).push(a);
    expect(() => canonicalize(a)).toThrow(refused("cyclic-value"));
    expect(() => canonicalize(a)).toThrow("$.x[1]");
  });

  it("refuses lone surrogates in values and keys", () => {
    expect(() => canonicalize("a\ud800")).toThrow(refused("lone-surrogate"));
    expect(() => canonicalize({ "\udc00": 1 })).toThrow(refused("lone-surrogate"));
    expect(canonicalize("\ud83d\ude00")).toBe('"😀"');
  });
});

describe("sha256Base64url / argsHash", () => {
  it("hashes the UTF-8 of a string and raw bytes alike", async () => {
    // SHA-256("abc") from FIPS 180-2, in base64url.
    expect(await sha256Base64url("abc")).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
    expect(await sha256Base64url(new TextEncoder().encode("abc"))).toBe(
      "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0",
    );
  });

  it("hashes absent arguments as {} and ignores key order", async () => {
    const empty = await sha256Base64url("{}");
    expect(await argsHash(undefined)).toBe(empty);
    expect(await argsHash({ b: 1, a: "x" })).toBe(await sha256Base64url('{"a":"x","b":1}'));
    expect(await argsHash({ a: "x", b: 1 })).toBe(await argsHash({ b: 1, a: "x" }));
  });
});
