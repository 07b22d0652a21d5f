import { describe, expect, it } from "vitest";
import { CallStreams } from "./call-streams";

const elicitation = (id: number) =>
  `event: message\ndata: ${JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "elicitation/create",
    params: { message: "Pay?", _meta: { "stipendex/quote": {} } },
  })}\n\n`;
const callBody = (name: string, args?: unknown) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, ...(args === undefined ? {} : { arguments: args }) },
  });

/** A fetch answering with `chunks` as an SSE stream, held open until `end()`. */
function sseServer(chunks: string[]) {
  let end = () => {};
  const fetchSse = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          end = () => controller.close();
        },
      }),
      { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8" } },
    );
  return { fetchSse, end: () => end() };
}

describe("CallStreams", () => {
  it("passes a call's SSE answer on byte for byte and names the call of each elicitation in it", async () => {
    const whole = `${elicitation(7)}event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n`;
    const server = sseServer([whole.slice(0, 30), whole.slice(30, 95), whole.slice(95)]);
    const streams = new CallStreams(server.fetchSse);
    const answer = await streams.fetch("http://127.0.0.1:9/mcp", {
      method: "POST",
      body: callBody("search", { q: "mcp" }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const reader = answer.body?.pipeThrough(new TextDecoderStream()).getReader();
    let read = "";
    while (!read.includes("\n\n")) read += (await reader?.read())?.value ?? "";
    expect(streams.callOf(7)).toEqual({ tool: "search", arguments: { q: "mcp" } });
    expect(streams.callOf(7)).toBeUndefined();
    server.end();
    for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) {
      read += part.value;
    }
    expect(read).toBe(whole);
  });

  it("forgets an elicitation nobody asked about once its call's answer ends; a call without arguments has {}", async () => {
    const server = sseServer([elicitation(3)]);
    const streams = new CallStreams(server.fetchSse);
    const answer = await streams.fetch("http://127.0.0.1:9/mcp", {
      method: "POST",
      body: callBody("ping"),
    });
    const reader = answer.body?.getReader();
    await reader?.read();
    server.end();
    expect(await reader?.read()).toMatchObject({ done: true });
    expect(streams.callOf(3)).toBeUndefined();

    const again = sseServer([elicitation(4)]);
    const other = new CallStreams(again.fetchSse);
    await (await other.fetch("http://127.0.0.1:9/mcp", { body: callBody("ping") })).body
      ?.getReader()
      .read();
    expect(other.callOf(4)).toEqual({ tool: "ping", arguments: {} });
  });

  it("leaves every other answer as the very same Response: other methods, JSON answers", async () => {
    const json = new Response("{}", { headers: { "content-type": "application/json" } });
    const sse = await sseServer([elicitation(5)]).fetchSse();
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(await new CallStreams(async () => sse).fetch("http://x/mcp", { body: list })).toBe(sse);
    expect(
      await new CallStreams(async () => json).fetch("http://x/mcp", { body: callBody("a") }),
    ).toBe(json);
  });
});
