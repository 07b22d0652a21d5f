import { describe, expect, it } from "vitest";
import type { ProtocolErrorCode } from "../errors";
import { readJsonForm, toJsonForm } from "./json-form";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

const JWS = "eyJhbGciOiJFZERTQSJ9.eyJhIjoxfQ.c2ln";

describe("JSON form", () => {
  it("round-trips and ignores everything outside jws", () => {
    const form = toJsonForm("proof", JWS);
    expect(form).toEqual({ stipendex: "proof/0.1", jws: JWS });
    expect(readJsonForm({ ...form, iss: "https://evil.example" }, "proof")).toBe(JWS);
  });

  it.each<[unknown, ProtocolErrorCode]>([
    [null, "malformed-json-form"],
    [[JWS], "malformed-json-form"],
    [{ jws: JWS }, "malformed-json-form"],
    [{ stipendex: "quote/0.1", jws: JWS }, "object-type-mismatch"],
    [{ stipendex: "proof/0.2", jws: JWS }, "unknown-object-type"],
    [{ stipendex: "proof/0.1", jws: 5 }, "malformed-json-form"],
    [{ stipendex: "proof/0.1", jws: "a.b" }, "malformed-jws"],
  ])("refuses %j with %s", (value, code) => {
    expect(() => readJsonForm(value, "proof")).toThrow(refused(code));
  });
});
