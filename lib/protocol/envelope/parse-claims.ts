import type { z } from "zod";
import {
  AmountNotIntegerError,
  AmountOutOfRangeError,
  type EnvelopeError,
  InvalidClaimsError,
  NegativeAmountError,
} from "./errors";

const BY_CODE: Record<string, new (message: string) => EnvelopeError> = {
  "amount-not-integer": AmountNotIntegerError,
  "negative-amount": NegativeAmountError,
  "amount-out-of-range": AmountOutOfRangeError,
};

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/**
 * Validates claims with a zod schema and throws the narrowest envelope error
 * for the first problem, naming the claim path and the value found there.
 */
export function parseClaims<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what: string,
  Fallback: new (message: string) => EnvelopeError = InvalidClaimsError,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw new Fallback(`${what} is invalid`);
  const path = issue.path.map(String).join(".") || "(payload)";
  const message = `${what} claim "${path}" ${issue.message} (found ${describe(valueAt(input, issue.path))})`;
  const code = issue.code === "custom" ? issue.params?.envelopeError : undefined;
  const ErrorClass = (typeof code === "string" && BY_CODE[code]) || Fallback;
  throw new ErrorClass(message);
}
