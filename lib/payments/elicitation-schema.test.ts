import { describe, expect, it } from "vitest";
import { assertConfirmationSchema, confirmationFits } from "./elicitation-schema";

const form = (confirmation: unknown, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties: { confirmation },
  ...extra,
});

describe("assertConfirmationSchema", () => {
  it("accepts envelope.md's form, with or without `required`, and no schema at all", () => {
    expect(() => assertConfirmationSchema(undefined)).not.toThrow();
    expect(() => assertConfirmationSchema(form({ type: "string" }))).not.toThrow();
    expect(() =>
      assertConfirmationSchema(
        form(
          { type: "string", title: "Confirmation", maxLength: 8192 },
          { required: ["confirmation"] },
        ),
      ),
    ).not.toThrow();
  });

  it.each([
    [{ type: "string" }, 'it is not an object schema with "properties"'],
    [form({ type: "number" }), 'it has no string property "confirmation"'],
    [
      { type: "object", properties: { confirm: { type: "string" } } },
      'it has no string property "confirmation"',
    ],
    [
      form({ type: "string", enum: ["yes", "no"] }),
      'its "confirmation" property has a "enum" a JWS cannot meet',
    ],
    [
      form({ type: "string", format: "email" }),
      'its "confirmation" property has a "format" a JWS cannot meet',
    ],
    [form({ type: "string" }, { required: "confirmation" }), 'its "required" is not a list'],
    [
      form({ type: "string" }, { required: ["confirmation", "name", "age"] }),
      'it also requires "name", "age", which the wallet does not fill',
    ],
  ])("refuses %j: %s", (schema, detail) => {
    expect(() => assertConfirmationSchema(schema)).toThrow(
      expect.objectContaining({
        name: "PaymentError",
        code: "elicitation-schema",
        message: `The server's form cannot take a Confirmation: ${detail}`,
      }),
    );
  });
});

describe("confirmationFits", () => {
  it("holds the Confirmation to the field's length limits", () => {
    const jws = "a".repeat(500);
    expect(confirmationFits(form({ type: "string" }), jws)).toBe(true);
    expect(confirmationFits(undefined, jws)).toBe(true);
    expect(confirmationFits(form({ type: "string", maxLength: 100 }), jws)).toBe(
      "the server's form takes at most 100 characters; the Confirmation has 500",
    );
    expect(confirmationFits(form({ type: "string", minLength: 600 }), jws)).toBe(
      "the server's form takes at least 600 characters; the Confirmation has 500",
    );
  });
});
