import { describe, expect, it } from "vitest";
import {
  MalformedJsonFormError,
  MalformedJwsError,
  ObjectTypeMismatchError,
  UnknownObjectTypeError,
} from "./errors";
import { readJsonForm, toJsonForm } from "./json-form";

const JWS = "eyJhbGciOiJFZERTQSJ9.eyJhIjoxfQ.c2ln";

describe("JSON form", () => {
  it("round-trips and ignores everything outside jws", () => {
    const form = toJsonForm("proof", JWS);
    expect(form).toEqual({ stipendex: "proof/0.1", jws: JWS });
    expect(readJsonForm({ ...form, iss: "https://evil.example" }, "proof")).toBe(JWS);
  });

  it.each([
    [null, MalformedJsonFormError],
    [[JWS], MalformedJsonFormError],
    [{ jws: JWS }, MalformedJsonFormError],
    [{ stipendex: "quote/0.1", jws: JWS }, ObjectTypeMismatchError],
    [{ stipendex: "proof/0.2", jws: JWS }, UnknownObjectTypeError],
    [{ stipendex: "proof/0.1", jws: 5 }, MalformedJsonFormError],
    [{ stipendex: "proof/0.1", jws: "a.b" }, MalformedJwsError],
  ])("refuses %j", (value, ErrorClass) => {
    expect(() => readJsonForm(value, "proof")).toThrow(ErrorClass);
  });
});
