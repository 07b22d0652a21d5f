import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { isProxyError } from "./errors";
import { encodeFrame, FrameDecoder, readFrames } from "./frame";

describe("native messaging frames", () => {
  it("prefix the UTF-8 JSON with its byte length in native (little-endian here) order", () => {
    const frame = encodeFrame({ text: "é" });
    const body = new TextEncoder().encode('{"text":"é"}');
    expect(Array.from(frame.subarray(0, 4))).toEqual([body.length, 0, 0, 0]);
    expect(new TextDecoder().decode(frame.subarray(4))).toBe('{"text":"é"}');
  });

  it("decode however the stream is cut, several to a chunk or one across many", () => {
    const a = encodeFrame({ id: 1, big: "x".repeat(300) });
    const b = encodeFrame({ id: 2 });
    const stream = new Uint8Array([...a, ...b]);
    const decoder = new FrameDecoder();
    const seen: unknown[] = [];
    for (let i = 0; i < stream.length; i += 7)
      seen.push(...decoder.push(stream.subarray(i, i + 7)));
    expect(seen).toEqual([{ id: 1, big: "x".repeat(300) }, { id: 2 }]);
    expect(new FrameDecoder().push(stream)).toEqual(seen);
  });

  it("refuse a message larger than the frame may carry", () => {
    expect(() => encodeFrame("x".repeat(100), 50)).toThrow(/larger than the 50 bytes/);
  });

  it("refuse a frame announcing more than the reader takes, before reading it", () => {
    const decoder = new FrameDecoder(10);
    try {
      decoder.push(new Uint8Array([11, 0, 0, 0]));
      expect.unreachable();
    } catch (error) {
      expect(isProxyError(error, "frame-too-large")).toBe(true);
    }
  });

  it("refuse a body that is not JSON", () => {
    const frame = new Uint8Array([3, 0, 0, 0, 0x7b, 0x7b, 0x7b]);
    expect(() => new FrameDecoder().push(frame)).toThrow(/not UTF-8 JSON/);
  });
});

describe("readFrames", () => {
  it("hands each message on, and a stream out of step to `broken` once, reading no more", () => {
    const stream = new PassThrough();
    const seen: unknown[] = [];
    const broken: unknown[] = [];
    readFrames(
      stream,
      (message) => seen.push(message),
      (error) => broken.push(error),
      64,
    );
    stream.write(encodeFrame({ id: 1 }));
    stream.write(new Uint8Array([200, 0, 0, 0]));
    stream.write(encodeFrame({ id: 2 }));
    expect(seen).toEqual([{ id: 1 }]);
    expect(broken).toHaveLength(1);
    expect(isProxyError(broken[0], "frame-too-large")).toBe(true);
  });
});
