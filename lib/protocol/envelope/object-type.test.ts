import { describe, expect, it } from "vitest";
import { OBJECT_TYPES, typHeader, versionTag } from "./object-type";

describe("object type names", () => {
  it("spell the payload marker and the typ header", () => {
    expect(OBJECT_TYPES.map(versionTag)).toEqual([
      "quote/0.1",
      "confirmation/0.1",
      "proof/0.1",
      "receipt/0.1",
    ]);
    expect(OBJECT_TYPES.map(typHeader)).toEqual([
      "stipendex-quote+jwt",
      "stipendex-confirmation+jwt",
      "stipendex-proof+jwt",
      "stipendex-receipt+jwt",
    ]);
    expect(typHeader("descriptor")).toBe("stipendex-descriptor+jwt");
  });
});
