import { describe, expect, it } from "vitest";
import { answeringCalls } from "./call-answers";
import { UpstreamAnswerError } from "./errors";

const ENDPOINT = "http://127.0.0.1:9/mcp";
const call = JSON.stringify({
  jsonrpc: "2.0",
  id: 3,
  method: "tools/call",
  params: { name: "search" },
});
const json = (body: string, status = 200) =>
  new Response(body, { status, headers: { "content-type": "application/json" } });

describe("answeringCalls", () => {
  it("hands on a tools/call's JSON answer as it came", async () => {
    const answer = '{"jsonrpc":"2.0","id":3,"result":{"content":[]}}';
    const response = await answeringCalls(async () => json(answer))(ENDPOINT, { body: call });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe(answer);
  });

  it.each([
    ["JSON that is no JSON-RPC", '{"error":"payment_parse"}'],
    ["a JSON-RPC notification", '{"jsonrpc":"2.0","method":"notifications/message","params":{}}'],
    ["another call's answer", '{"jsonrpc":"2.0","id":4,"result":{}}'],
    ["its answer beside what is no JSON-RPC", '[{"jsonrpc":"2.0","id":3,"result":{}},{"ok":1}]'],
    ["no JSON at all", "<html>"],
  ])("fails a tools/call answered 2xx with %s, with what the server said", async (_, body) => {
    const failure = await answeringCalls(async () => json(body, 201))(ENDPOINT, {
      body: call,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamAnswerError);
    expect(failure).toMatchObject({
      status: 201,
      message: `HTTP 201 with JSON that does not answer the call: ${body}`,
    });
  });

  it("leaves every other answer as the very same Response: other methods, HTTP errors, other types", async () => {
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const unanswered = json('{"ok":true}');
    expect(await answeringCalls(async () => unanswered)(ENDPOINT, { body: list })).toBe(unanswered);
    const refused = json('{"error":"payment_parse"}', 402);
    expect(await answeringCalls(async () => refused)(ENDPOINT, { body: call })).toBe(refused);
    const text = new Response("done", { headers: { "content-type": "text/plain" } });
    expect(await answeringCalls(async () => text)(ENDPOINT, { body: call })).toBe(text);
  });
});
