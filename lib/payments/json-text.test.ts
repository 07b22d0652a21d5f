import { describe, expect, it } from "vitest";
import { jsonOrUndefined } from "./json-text";

describe("jsonOrUndefined", () => {
  it("reads JSON text and gives undefined for anything else", () => {
    expect(jsonOrUndefined('{"error":"x"}')).toEqual({ error: "x" });
    expect(jsonOrUndefined("Payment Required")).toBeUndefined();
  });
});
