import { z } from "zod";
import { ProtocolError, type ProtocolErrorCode, quote, valueAt } from "../errors";
import { isRecord } from "../rails/is-record";

/** A JSON object, kept as the very value received: x402 answers echo the server's objects verbatim. */
export const jsonObjectSchema = z.custom<Record<string, unknown>>(isRecord, {
  error: "not an object",
});

/**
 * Parses an x402 value with its schema, or throws for the first problem zod found: the
 * field's own code from `codes` (by dotted path) or else `code`, and a message naming the
 * field, the value found there and why it was refused.
 */
export function readX402<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  code: ProtocolErrorCode,
  codes: Readonly<Record<string, ProtocolErrorCode>> = {},
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.map(String).join(".") ?? "";
  const found = valueAt(value, issue?.path ?? []);
  const field = path === "" ? what : `${what}.${path}`;
  const shown = found === undefined ? "is missing" : `is ${quote(found)}`;
  throw new ProtocolError(codes[path] ?? code, `${field} ${shown}: ${issue?.message ?? "invalid"}`);
}
