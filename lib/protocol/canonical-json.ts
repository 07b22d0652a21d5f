import { base64url } from "jose";
import { StipendexError } from "../errors";

/** A value JSON cannot carry (bigint, function, symbol, undefined in an array, Date, Map…). */
export class UnsupportedJsonValueError extends StipendexError {
  override name = "UnsupportedJsonValueError";
  constructor(path: string, kind: string) {
    super(
      "unsupported-json-value",
      `Cannot canonicalize ${kind} at ${path}: it is not a JSON value`,
    );
  }
}

/** NaN and ±Infinity have no JSON form (RFC 8785 §3.2.2.3). */
export class NonFiniteNumberError extends StipendexError {
  override name = "NonFiniteNumberError";
  constructor(path: string, value: number) {
    super("non-finite-number", `Cannot canonicalize the number ${value} at ${path}: not finite`);
  }
}

/** I-JSON (RFC 7493), which RFC 8785 requires, forbids unpaired surrogates. */
export class LoneSurrogateError extends StipendexError {
  override name = "LoneSurrogateError";
  constructor(path: string) {
    super(
      "lone-surrogate",
      `Cannot canonicalize the string at ${path}: it holds an unpaired surrogate`,
    );
  }
}

export class CyclicValueError extends StipendexError {
  override name = "CyclicValueError";
  constructor(path: string) {
    super("cyclic-value", `Cannot canonicalize ${path}: it contains itself`);
  }
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
      if (!Number.isFinite(value)) throw new NonFiniteNumberError(path, value);
      // ECMAScript Number-to-String is exactly RFC 8785's number form (and -0 prints as 0).
      return JSON.stringify(value);
    case "string":
      if (LONE_SURROGATE.test(value)) throw new LoneSurrogateError(path);
      // JSON.stringify escapes exactly the set RFC 8785 §3.2.2.2 requires, in the same spelling.
      return JSON.stringify(value);
    case "object":
      return serializeContainer(value, path, ancestors);
    default:
      throw new UnsupportedJsonValueError(path, typeof value);
  }
}

function serializeContainer(value: object, path: string, ancestors: Set<object>): string {
  if (ancestors.has(value)) throw new CyclicValueError(path);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return `[${value.map((item: unknown, i) => serialize(item, `${path}[${i}]`, ancestors)).join(",")}]`;
    }
    if (!isPlainObject(value)) {
      throw new UnsupportedJsonValueError(path, `an object of class ${value.constructor?.name}`);
    }
    if (Object.getOwnPropertySymbols(value).length > 0) {
      throw new UnsupportedJsonValueError(path, "an object with symbol keys");
    }
    // Default sort compares UTF-16 code units, which is the order RFC 8785 §3.2.3 asks for.
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    const members = keys.map((key) => {
      if (LONE_SURROGATE.test(key))
        throw new LoneSurrogateError(`${path} key ${JSON.stringify(key)}`);
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
