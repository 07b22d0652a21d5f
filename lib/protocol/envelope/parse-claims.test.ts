import { describe, expect, it } from "vitest";
import { RAIL } from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import { railSchema } from "./claims";
import { InvalidClaimsError, InvalidDescriptorError, NegativeAmountError } from "./errors";
import { parseClaims } from "./parse-claims";

describe("parseClaims", () => {
  it("returns the parsed value, keeping unknown members", () => {
    expect(parseClaims(railSchema, { ...RAIL, future: 1 }, "Rail")).toEqual({ ...RAIL, future: 1 });
  });

  it("names the path and the value, and picks the narrow class", () => {
    expect(() => parseClaims(railSchema, { ...RAIL, decimals: "6" }, "Rail")).toThrow(
      new InvalidClaimsError(
        'Rail claim "decimals" Invalid input: expected number, received string (found "6")',
      ),
    );
    expect(() => parseClaims(railSchema, { ...RAIL, amount: "-1" }, "Rail")).toThrow(
      NegativeAmountError,
    );
    expect(() => parseClaims(railSchema, null, "Rail", InvalidDescriptorError)).toThrow(
      InvalidDescriptorError,
    );
  });
});
