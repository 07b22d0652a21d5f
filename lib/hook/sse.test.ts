import { describe, expect, it } from "vitest";
import { formatSseMessage, SseSplitter } from "./sse";

describe("SseSplitter", () => {
  it("splits events across arbitrary chunk boundaries and keeps their raw text", () => {
    const text =
      'event: message\nid: 1\ndata: {"a":1}\n\n: keep-alive\n\ndata: line1\r\ndata: line2\r\n\r\nretry: 5\n\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const splitter = new SseSplitter();
      const events = [...splitter.push(text.slice(0, cut)), ...splitter.push(text.slice(cut))];
      expect(events.map((e) => e.raw).join("")).toBe(text);
      expect(events.map((e) => e.data)).toEqual(['{"a":1}', undefined, "line1\nline2", undefined]);
      expect(events[0]).toMatchObject({ event: "message", id: "1" });
      expect(splitter.flush()).toBeUndefined();
    }
  });

  it("returns an unterminated last event on flush", () => {
    const splitter = new SseSplitter();
    expect(splitter.push("data: x")).toEqual([]);
    expect(splitter.flush()).toMatchObject({ raw: "data: x", data: "x" });
  });

  it("ignores an id holding U+0000, as the SSE standard (and MCP's SDK) does", () => {
    const [ignored, kept] = new SseSplitter().push("id: a\u0000b\ndata: 1\n\nid: c\ndata: 2\n\n");
    expect(ignored?.id).toBeUndefined();
    expect(kept?.id).toBe("c");
  });

  it("reads the reconnection time a `retry:` of digits sets, and nothing else", () => {
    const events = new SseSplitter().push("retry: 250\n\nretry: 1.5\n\nretry: x\ndata: 1\n\n");
    expect(events.map((event) => event.retry)).toEqual([250, undefined, undefined]);
  });

  it("formats a message that it reads back", () => {
    const raw = formatSseMessage({ jsonrpc: "2.0", id: 3, result: {} }, "7");
    const [event] = new SseSplitter().push(raw);
    expect(event).toMatchObject({ id: "7", event: "message" });
    expect(JSON.parse(event?.data ?? "")).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
  });
});
