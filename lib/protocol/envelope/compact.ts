import { base64url } from "jose";
import { ProtocolError } from "../errors";

/** Generous for any real Quote/Proof; keeps hostile input from costing time or memory. */
export const MAX_COMPACT_LENGTH = 64 * 1024;

const COMPACT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

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
