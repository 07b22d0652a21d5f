import { base64url } from "jose";
import { ProtocolError } from "./errors";

function unsupportedValue(path: string, kind: string): ProtocolError {
  return new ProtocolError(
    "unsupported-json-value",
    `Cannot canonicalize ${kind} at ${path}: it is not a JSON value`,
  );
}

function loneSurrogate(path: string): ProtocolError {
  return new ProtocolError(
    "lone-surrogate",
    `Cannot canonicalize the string at ${path}: it holds an unpaired surrogate`,
  );
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function serialize(value: unknown, path: string, ancestors: Set<object>): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) {
        throw new ProtocolError(
          "non-finite-number",
          `Cannot canonicalize the number ${value} at ${path}: not finite`,
        );
      }
      // ECMAScript Number-to-String is exactly RFC 8785's number form (and -0 prints as 0).
      return JSON.stringify(value);
    case "string":
      if (LONE_SURROGATE.test(value)) throw loneSurrogate(path);
      // JSON.stringify escapes exactly the set RFC 8785 §3.2.2.2 requires, in the same spelling.
      return JSON.stringify(value);
    case "object":
      return serializeContainer(value, path, ancestors);
    default:
      throw unsupportedValue(path, typeof value);
  }
}

function serializeContainer(value: object, path: string, ancestors: Set<object>): string {
  if (ancestors.has(value)) {
    throw new ProtocolError("cyclic-value", `Cannot canonicalize ${path}: it contains itself`);
  }
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return `[${value.map((item: unknown, i) => serialize(item, `${path}[${i}]`, ancestors)).join(",")}]`;
    }
    if (!isPlainObject(value)) {
      throw unsupportedValue(path, `an object of class ${value.constructor?.name}`);
    }
    if (Object.getOwnPropertySymbols(value).length > 0) {
      throw unsupportedValue(path, "an object with symbol keys");
    }
    // Default sort compares UTF-16 code units, which is the order RFC 8785 §3.2.3 asks for.
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    const members = keys.map((key) => {
      if (LONE_SURROGATE.test(key)) throw loneSurrogate(`${path} key ${JSON.stringify(key)}`);
      return `${JSON.stringify(key)}:${serialize(value[key], `${path}.${key}`, ancestors)}`;
    });
    return `{${members.join(",")}}`;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * RFC 8785 (JCS) canonical JSON. Object members whose value is `undefined` are
 * left out, as JSON.stringify does; anything else JSON cannot carry is refused.
 */
export function canonicalize(value: unknown): string {
  return serialize(value, "$", new Set());
}

/** base64url (no padding) of SHA-256 over the bytes, or over the UTF-8 of a string. */
export async function sha256Base64url(input: Uint8Array | string): Promise<string> {
  // The copy gives WebCrypto an ArrayBuffer-backed view whatever buffer the caller used.
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : new Uint8Array(input);
  const digest = await globalThis.crypto.subtle.digest("SHA-256", bytes);
  return base64url.encode(new Uint8Array(digest));
}

/** The `argsHash` of an MCP resource: absent arguments hash as `{}`. */
export async function argsHash(args: unknown): Promise<string> {
  return sha256Base64url(canonicalize(args ?? {}));
}
