import type { z } from "zod";
import { ProtocolError, type ProtocolErrorCode, valueAt } from "../errors";
import { AMOUNT_PROBLEMS } from "./amount";

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
  fallback: ProtocolErrorCode = "invalid-claims",
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw new ProtocolError(fallback, `${what} is invalid`);
  const path = issue.path.map(String).join(".") || "(payload)";
  const message = `${what} claim "${path}" ${issue.message} (found ${describe(valueAt(input, issue.path))})`;
  const custom = issue.code === "custom" ? issue.params?.code : undefined;
  const code = AMOUNT_PROBLEMS.find((problem) => problem === custom) ?? fallback;
  throw new ProtocolError(code, message);
}
