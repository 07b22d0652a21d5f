import { describe, expect, it } from "vitest";
import { RAIL } from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import { ProtocolError, type ProtocolErrorCode } from "../errors";
import { railSchema } from "./claims";
import { parseClaims } from "./parse-claims";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

describe("parseClaims", () => {
  it("returns the parsed value, keeping unknown members", () => {
    expect(parseClaims(railSchema, { ...RAIL, future: 1 }, "Rail")).toEqual({ ...RAIL, future: 1 });
  });

  it("names the path and the value, and picks the narrow code", () => {
    expect(() => parseClaims(railSchema, { ...RAIL, decimals: "6" }, "Rail")).toThrow(
      new ProtocolError(
        "invalid-claims",
        'Rail claim "decimals" Invalid input: expected number, received string (found "6")',
      ),
    );
    expect(() => parseClaims(railSchema, { ...RAIL, amount: "-1" }, "Rail")).toThrow(
      refused("negative-amount"),
    );
    expect(() => parseClaims(railSchema, null, "Rail", "invalid-descriptor")).toThrow(
      refused("invalid-descriptor"),
    );
  });
});
