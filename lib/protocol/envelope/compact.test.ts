import { describe, expect, it } from "vitest";
import type { ProtocolErrorCode } from "../errors";
import { MAX_COMPACT_LENGTH, readCompact } from "./compact";

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
