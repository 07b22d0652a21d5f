import { ProxyError } from "./errors";

/**
 * Native messaging frames: a 32-bit length in the machine's own byte order,
 * then that many bytes of UTF-8 JSON. The local channel between proxies and
 * the native host uses the same frames.
 */

/** What a browser takes from a native host in one message (Chromium and Firefox: 1 MB). */
export const MAX_HOST_TO_BROWSER = 1024 * 1024;

/** What the proxy side takes in one frame: a paid result may be large, never unbounded. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

const HEADER = 4;

/** Native byte order, as the browsers write the length. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** One message as a frame; refuses one larger than `max` bytes of JSON. */
export function encodeFrame(message: unknown, max: number = MAX_FRAME_BYTES): Uint8Array {
  const body = new TextEncoder().encode(JSON.stringify(message));
  if (body.length > max) {
    throw new ProxyError(
      "frame-too-large",
      `A message of ${body.length} bytes is larger than the ${max} bytes a frame may carry`,
    );
  }
  const frame = new Uint8Array(HEADER + body.length);
  new DataView(frame.buffer).setUint32(0, body.length, LITTLE_ENDIAN);
  frame.set(body, HEADER);
  return frame;
}

/**
 * Reads frames out of a byte stream however it is chunked. A frame that
 * announces more than `max` bytes, or is not JSON, throws: the stream is
 * then out of step and must be closed.
 */
export class FrameDecoder {
  private buffer = new Uint8Array(0);
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });

  constructor(private readonly max: number = MAX_FRAME_BYTES) {}

  /** The messages completed by `chunk`, in order. */
  push(chunk: Uint8Array): unknown[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.length);
    const messages: unknown[] = [];
    let offset = 0;
    while (joined.length - offset >= HEADER) {
      const length = new DataView(joined.buffer, offset, HEADER).getUint32(0, LITTLE_ENDIAN);
      if (length > this.max) {
        throw new ProxyError(
          "frame-too-large",
          `A frame announces ${length} bytes, more than the ${this.max} this side takes`,
        );
      }
      if (joined.length - offset - HEADER < length) break;
      const body = joined.subarray(offset + HEADER, offset + HEADER + length);
      messages.push(this.parse(body));
      offset += HEADER + length;
    }
    this.buffer = joined.slice(offset);
    return messages;
  }

  private parse(body: Uint8Array): unknown {
    try {
      return JSON.parse(this.decoder.decode(body));
    } catch (cause) {
      throw new ProxyError("frame-malformed", "A frame's body is not UTF-8 JSON", { cause });
    }
  }
}

/**
 * Reads the frames arriving on `stream`, message by message. A stream that
 * falls out of step (a frame too large, or not JSON) is handed to `broken`
 * once, and nothing more is read from it.
 */
export function readFrames(
  stream: { on(event: "data", listener: (chunk: Uint8Array) => void): unknown },
  onMessage: (message: unknown) => void,
  broken: (error: unknown) => void,
  max: number = MAX_FRAME_BYTES,
): void {
  const decoder = new FrameDecoder(max);
  let failed = false;
  stream.on("data", (chunk) => {
    if (failed) return;
    let messages: unknown[];
    try {
      messages = decoder.push(chunk);
    } catch (error) {
      failed = true;
      broken(error);
      return;
    }
    for (const message of messages) onMessage(message);
  });
}
