import { base64url } from "jose";
import { describe, expect, it } from "vitest";
import type { ProtocolErrorCode } from "../errors";
import { MAX_COMPACT_LENGTH, readCompact, readCompactOrBase64url } from "./compact";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

describe("readCompact", () => {
  it("accepts three canonical base64url segments", () => {
    expect(readCompact("eyJhIjoxfQ.eyJhIjoxfQ.AQ")).toBe("eyJhIjoxfQ.eyJhIjoxfQ.AQ");
  });

  it.each([
    ["a number", 5],
    ["two segments", "eyJhIjoxfQ.eyJhIjoxfQ"],
    ["padding", "eyJhIjoxfQ==.eyJhIjoxfQ.AQ"],
    ["standard base64", "eyJhIjoxfQ+.eyJhIjoxfQ.AQ"],
    ["non-canonical trailing bits", "eyJhIjoxfQ.eyJhIjoxfQ.AR"],
    ["an impossible length", "eyJhIjoxfQ.eyJhIjoxfQ.A"],
    ["whitespace", " eyJhIjoxfQ.eyJhIjoxfQ.AQ"],
    ["too much", `${"A".repeat(MAX_COMPACT_LENGTH)}.AQ.AQ`],
  ])("refuses %s", (_label, value) => {
    expect(() => readCompact(value)).toThrow(refused("malformed-jws"));
  });
});

describe("readCompactOrBase64url", () => {
  // 25 characters: its base64url ends in a character with spare bits, and a padded form has "==".
  const COMPACT = "eyJhIjoxfQ.eyJhIjoxfQ.AQA";
  const WRAPPED = base64url.encode(COMPACT);

  it("takes a compact JWS as it is", () => {
    expect(readCompactOrBase64url(COMPACT)).toBe(COMPACT);
  });

  it("unwraps the base64url of a compact JWS (the seed's `base64url(Receipt JWS)`)", () => {
    expect(WRAPPED).not.toContain(".");
    expect(readCompactOrBase64url(WRAPPED)).toBe(COMPACT);
  });

  it("unwraps it padded too (RFC 4648 §5: Python's urlsafe_b64encode, Java's and Go's URL encoders)", () => {
    expect(readCompactOrBase64url(`${WRAPPED}==`)).toBe(COMPACT);
    const oneShort = base64url.encode(`${COMPACT}A`);
    expect(readCompactOrBase64url(`${oneShort}=`)).toBe(`${COMPACT}A`);
  });

  it.each([
    ["a number", 5, /got number/],
    ["a broken compact JWS", "eyJhIjoxfQ.eyJhIjoxfQ.AR", /Segment 3 is not canonical base64url/],
    [
      "padding short of a whole block",
      `${WRAPPED}=`,
      /padded to 35 characters, not a multiple of 4/,
    ],
    ["padding in the middle", `${WRAPPED.slice(0, 8)}=${WRAPPED.slice(9)}`, /"=" at 8, outside/],
    [
      "padding where none is due",
      `${base64url.encode("eyJhIjoxfQ.eyJhIjoxfQ.AQAB")}==`,
      /not a multiple of 4/,
    ],
    ["standard base64", `+${WRAPPED.slice(1)}`, /"\+" at 0, outside the base64url alphabet/],
    ["an impossible length", `${WRAPPED}AAA`, /37 characters, not a whole number of bytes/],
    ["non-canonical trailing bits", `${WRAPPED.slice(0, -1)}R`, /not canonical base64url/],
    ["bytes that are not UTF-8", base64url.encode(new Uint8Array([0xff, 0xfe])), /not UTF-8/],
    [
      "base64url of something else",
      base64url.encode("hello"),
      /decodes to "hello", which is not a compact JWS: Not three base64url segments/,
    ],
    [
      "base64url of a broken compact JWS",
      base64url.encode("eyJhIjoxfQ.eyJhIjoxfQ.AR"),
      /which is not a compact JWS: Segment 3 is not canonical/,
    ],
    ["too much", "A".repeat(2 * MAX_COMPACT_LENGTH), /more than/],
  ])("refuses %s, saying what was wrong", (_label, value, message) => {
    expect(() => readCompactOrBase64url(value)).toThrow(refused("malformed-jws"));
    expect(() => readCompactOrBase64url(value)).toThrow(message);
  });
});
