import { isRecord } from "../protocol/rails/is-record";
import { PaymentError } from "./errors";

/** The one field envelope.md puts in a payment elicitation's form. */
export const CONFIRMATION_FIELD = "confirmation";

/** A payment elicitation's `requestedSchema` that the wallet's answer could not satisfy, and why. */
export function elicitationSchemaError(detail: string): PaymentError {
  return new PaymentError(
    "elicitation-schema",
    `The server's form cannot take a Confirmation: ${detail}`,
  );
}

/**
 * Checks, before the person is asked, that an answer `{ confirmation:
 * "<compact JWS>" }` is one the server's `requestedSchema` accepts (MCP's
 * flat object of primitive fields): `confirmation` is a plain string field,
 * and no other field is required. Throws "elicitation-schema" naming what
 * does not fit. An absent schema asks for nothing in particular.
 */
export function assertConfirmationSchema(schema: unknown): void {
  if (schema === undefined) return;
  if (!isRecord(schema) || schema.type !== "object" || !isRecord(schema.properties)) {
    throw elicitationSchemaError('it is not an object schema with "properties"');
  }
  const field = schema.properties[CONFIRMATION_FIELD];
  if (!isRecord(field) || field.type !== "string") {
    throw elicitationSchemaError(`it has no string property "${CONFIRMATION_FIELD}"`);
  }
  for (const constraint of ["enum", "oneOf", "anyOf", "format", "const"]) {
    if (constraint in field) {
      throw elicitationSchemaError(
        `its "${CONFIRMATION_FIELD}" property has a "${constraint}" a JWS cannot meet`,
      );
    }
  }
  const required = schema.required ?? [];
  if (!Array.isArray(required)) throw elicitationSchemaError('its "required" is not a list');
  const others = required.filter((name) => name !== CONFIRMATION_FIELD);
  if (others.length > 0) {
    throw elicitationSchemaError(
      `it also requires ${others.map((name) => JSON.stringify(name)).join(", ")}, which the wallet does not fill`,
    );
  }
}

/** Whether `confirmation` is within the schema's `minLength` / `maxLength` for the field (checked once it exists). */
export function confirmationFits(schema: unknown, confirmation: string): true | string {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const field = properties[CONFIRMATION_FIELD];
  if (!isRecord(field)) return true;
  const { minLength, maxLength } = field;
  if (typeof maxLength === "number" && confirmation.length > maxLength) {
    return `the server's form takes at most ${maxLength} characters; the Confirmation has ${confirmation.length}`;
  }
  if (typeof minLength === "number" && confirmation.length < minLength) {
    return `the server's form takes at least ${minLength} characters; the Confirmation has ${confirmation.length}`;
  }
  return true;
}
