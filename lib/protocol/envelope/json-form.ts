import { ProtocolError } from "../errors";
import { readCompact } from "./compact";
import { OBJECT_TYPES, type ObjectType, versionTag } from "./object-type";

export interface JsonForm<T extends ObjectType = ObjectType> {
  stipendex: `${T}/0.1`;
  jws: string;
}

/** The JSON form carried in 402 bodies and MCP `error.data` / `_meta`. */
export function toJsonForm<T extends ObjectType>(type: T, jws: string): JsonForm<T> {
  return { stipendex: versionTag(type), jws: readCompact(jws) };
}

/**
 * Reads a JSON form and returns only its compact JWS: nothing outside `jws`
 * is trusted, the marker only has to name the expected type. `readJws` reads
 * the `jws` member (a Receipt's may come base64url-wrapped).
 */
export function readJsonForm(
  value: unknown,
  type: ObjectType,
  readJws: (jws: string) => string = readCompact,
): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ProtocolError(
      "malformed-json-form",
      `Expected a { stipendex, jws } object for a ${type}, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`,
    );
  }
  const { stipendex, jws } = value as Record<string, unknown>;
  if (typeof stipendex !== "string") {
    throw new ProtocolError(
      "malformed-json-form",
      `The ${type} JSON form has no string "stipendex" marker (got ${typeof stipendex})`,
    );
  }
  if (stipendex !== versionTag(type)) {
    const known = OBJECT_TYPES.map(versionTag) as string[];
    if (known.includes(stipendex)) {
      throw new ProtocolError(
        "object-type-mismatch",
        `Expected "${versionTag(type)}", got a "${stipendex}" JSON form`,
      );
    }
    throw new ProtocolError(
      "unknown-object-type",
      `Unknown object type ${JSON.stringify(stipendex.slice(0, 64))}; expected "${versionTag(type)}"`,
    );
  }
  if (typeof jws !== "string") {
    throw new ProtocolError(
      "malformed-json-form",
      `The ${type} JSON form has no string "jws" (got ${typeof jws})`,
    );
  }
  return readJws(jws);
}
