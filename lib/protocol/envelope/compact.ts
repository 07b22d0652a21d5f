import { base64url } from "jose";
import { errorText } from "../../errors";
import { ProtocolError } from "../errors";

/** Generous for any real Quote/Proof; keeps hostile input from costing time or memory. */
export const MAX_COMPACT_LENGTH = 64 * 1024;

const COMPACT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** base64url of a compact JWS at the cap: 4 characters for every 3 bytes. */
const MAX_WRAPPED_LENGTH = Math.ceil((MAX_COMPACT_LENGTH * 4) / 3);

const NOT_BASE64URL = /[^A-Za-z0-9_-]/;
const PADDING = /={1,2}$/;

function preview(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/**
 * Reads the header form (`Stipendex-Payment`, `Stipendex-Receipt`): a compact
 * JWS. Each segment must be canonical base64url — otherwise two spellings of
 * one signature would hash (qh/ph) differently.
 */
export function readCompact(value: unknown): string {
  if (typeof value !== "string") {
    throw new ProtocolError("malformed-jws", `Expected a compact JWS string, got ${typeof value}`);
  }
  if (value.length > MAX_COMPACT_LENGTH) {
    throw new ProtocolError(
      "malformed-jws",
      `Compact JWS is ${value.length} characters, more than ${MAX_COMPACT_LENGTH}`,
    );
  }
  if (!COMPACT_SHAPE.test(value)) {
    throw new ProtocolError(
      "malformed-jws",
      `Not three base64url segments joined by dots: ${preview(value)}`,
    );
  }
  for (const [index, segment] of value.split(".").entries()) {
    let canonical: string;
    try {
      canonical = base64url.encode(base64url.decode(segment));
    } catch (cause) {
      throw new ProtocolError(
        "malformed-jws",
        `Segment ${index + 1} is not base64url: ${preview(segment)}`,
        { cause },
      );
    }
    if (canonical !== segment) {
      throw new ProtocolError(
        "malformed-jws",
        `Segment ${index + 1} is not canonical base64url: ${preview(segment)}`,
      );
    }
  }
  return value;
}

function notWrapped(problem: string, options?: { cause?: unknown }): ProtocolError {
  return new ProtocolError(
    "malformed-jws",
    `Neither a compact JWS nor the base64url of one: ${problem}`,
    options,
  );
}

/**
 * Reads a compact JWS, or the base64url of one. The seed's HTTP binding writes
 * the Receipt header as `base64url(Receipt JWS)`, which envelope.md reads as the
 * compact JWS itself; a receiver that encodes it once more is read too. A value
 * with a dot can only be a compact JWS (base64url has no dot); one without must
 * be canonical base64url of UTF-8 text that is one: unpadded, or padded to a
 * multiple of 4 (RFC 4648 §5, as Python's, Java's and Go's URL encoders write it).
 */
export function readCompactOrBase64url(value: unknown): string {
  if (typeof value !== "string" || value.includes(".")) return readCompact(value);
  if (value.length > MAX_WRAPPED_LENGTH + 2) {
    throw notWrapped(`${value.length} characters, more than ${MAX_WRAPPED_LENGTH}`);
  }
  const padding = PADDING.exec(value)?.[0] ?? "";
  if (padding && value.length % 4 !== 0) {
    throw notWrapped(`padded to ${value.length} characters, not a multiple of 4`);
  }
  return unwrap(value.slice(0, value.length - padding.length));
}

/** The base64url of a compact JWS, its padding taken off. */
function unwrap(value: string): string {
  const stray = NOT_BASE64URL.exec(value);
  if (stray) {
    throw notWrapped(
      `${JSON.stringify(stray[0])} at ${stray.index}, outside the base64url alphabet (no padding)`,
    );
  }
  if (value.length % 4 === 1) {
    throw notWrapped(`${value.length} characters, not a whole number of bytes of base64url`);
  }
  const bytes = base64url.decode(value);
  if (base64url.encode(bytes) !== value) {
    throw notWrapped("not canonical base64url (its last character sets bits past the end)");
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (cause) {
    throw notWrapped("its base64url decodes to bytes that are not UTF-8 text", { cause });
  }
  try {
    return readCompact(text);
  } catch (cause) {
    throw new ProtocolError(
      "malformed-jws",
      `Base64url that decodes to ${preview(text)}, which is not a compact JWS: ${errorText(cause)}`,
      { cause },
    );
  }
}
