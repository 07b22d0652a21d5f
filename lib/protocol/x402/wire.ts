import { ProtocolError, quote } from "../errors";

/** Inputs from servers are capped before parsing so a hostile 402 cannot stall the worker. */
export const MAX_INPUT_BYTES = 64 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function notBase64(what: string, value: string, options?: { cause?: unknown }): ProtocolError {
  return new ProtocolError(
    "header-not-base64",
    `${what} is not standard base64 of UTF-8: ${quote(value)}`,
    options,
  );
}

/** Byte length as UTF-8, refusing anything over the cap. */
export function assertInputSize(text: string, what: string): void {
  // A UTF-16 unit is at most 3 UTF-8 bytes: skip encoding when the text is clearly small.
  if (text.length * 3 <= MAX_INPUT_BYTES) return;
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_INPUT_BYTES) {
    throw new ProtocolError(
      "body-too-large",
      `${what} is ${bytes} bytes, over the ${MAX_INPUT_BYTES}-byte limit; not parsed`,
    );
  }
}

export function parseJsonText(text: string, what: string): unknown {
  assertInputSize(text, what);
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ProtocolError("not-json", `${what} is not JSON: ${quote(text)}`, { cause });
  }
}

/** Standard base64 (with padding) of UTF-8 JSON, as the x402 packages write their headers. */
export function encodeBase64Json(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function decodeBase64Json(header: string, what: string): unknown {
  assertInputSize(header, what);
  if (!BASE64.test(header)) throw notBase64(what, header);
  let text: string;
  try {
    const binary = atob(header);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (cause) {
    throw notBase64(what, header, { cause });
  }
  return parseJsonText(text, `${what} (decoded)`);
}
