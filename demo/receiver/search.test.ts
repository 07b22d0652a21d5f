import { describe, expect, it } from "vitest";
import { search } from "./search";

describe("search", () => {
  it("returns matching hits, or all hits up to the limit when nothing matches", () => {
    expect(search("canonicalization").results.map((h) => h.title)).toEqual([
      "RFC 8785: JSON Canonicalization Scheme",
    ]);
    expect(search("zzz", 2).results).toHaveLength(2);
    expect(search("zzz").query).toBe("zzz");
  });
});
