/**
 * The proxy's idea of "the SDK will resume" against MCP's SDK's own transport
 * (StreamableHTTPClientTransport), wired as forward.ts wires it:
 * CallStreams(answeringCalls(<inner>)), the inner fetch watching a paid
 * tools/call's answer with answerToCall(..., paid) as http-402.ts does.
 * Reconnection delays are shortened; maxRetries is the SDK's default (2).
 */
import { describe, expect, it } from "vitest";
import { sdkClient } from "../../tests/unit-support/mcp/sdk-client";
import { sseResponse } from "../../tests/unit-support/proxy/sse-response";
import { readJsonRpcRequest } from "../hook/jsonrpc";
import { answeringCalls, answerToCall, type PaidOutcome, Resumptions } from "./call-answers";
import { CallStreams } from "./call-streams";

const ENDPOINT = "http://127.0.0.1:9/mcp";
const CALL = { jsonrpc: "2.0" as const, id: 3, method: "tools/call", params: { name: "search" } };

const sse = sseResponse;

interface Seen {
  method: string;
  url: string;
  lastEventId: string | null;
}

type Server = (seen: Seen, index: number) => Response | Promise<Response>;

/** The SDK transport over the proxy's fetch chain, against `server`. */
async function harness(server: Server) {
  const resumptions = new Resumptions();
  const told: PaidOutcome[] = [];
  const paid = { paymentId: "p1", settled: (outcome: PaidOutcome) => told.push(outcome) };
  const seen: Seen[] = [];
  const upstream = async (input: string | URL | Request, init?: RequestInit) => {
    const one = {
      method: init?.method ?? "GET",
      url: String(input),
      lastEventId: new Headers(init?.headers).get("last-event-id"),
    };
    seen.push(one);
    return server(one, seen.length - 1);
  };
  // As http-402.ts: a paid retry's answer is watched with `paid` before answeringCalls sees it.
  const paying = (async (input, init) => {
    const response = await upstream(input, init);
    const request = readJsonRpcRequest(init?.body);
    if (request?.method !== "tools/call" || request.id === undefined) return response;
    return answerToCall(response, request.id, paid, resumptions);
  }) as typeof fetch;
  const streams = new CallStreams(answeringCalls(paying, resumptions));
  const { transport, messages, errors } = await sdkClient(ENDPOINT, {
    fetch: streams.fetch,
    reconnectionOptions: {
      initialReconnectionDelay: 5,
      maxReconnectionDelay: 20,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 2,
    },
  });
  await transport.send(CALL);
  const answered = () => messages.filter((m) => "id" in m && m.id === 3 && !("method" in m));
  return { transport, resumptions, told, seen, messages, errors, answered };
}

const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));
const primed = "id: e1\ndata: \n\n";

describe("a paid call's SSE answer, resumed (or not) by MCP's SDK transport", () => {
  it("hands the SDK the resumed stream's answer and files the receipt once", async () => {
    const h = await harness(({ method }) =>
      method === "POST"
        ? sse([primed])
        : sse(['id: e2\nevent: message\ndata: {"jsonrpc":"2.0","id":3,"result":{}}\n\n']),
    );
    await settle();
    expect(h.answered()).toHaveLength(1);
    expect(h.told).toEqual([{ answer: { jsonrpc: "2.0", id: 3, result: {} } }]);
  });

  // The proxy failed the call at the first failed resumption, while the SDK tries a failed one
  // again (maxRetries 2): a network blip or a 503 on the GET lost an answer still to come.
  it("waits for the SDK's second try of a resumption that failed once, and gives the call up after that one fails too", async () => {
    for (const failure of ["network", "503"] as const) {
      const fail = () =>
        failure === "network"
          ? Promise.reject(new TypeError("fetch failed"))
          : new Response("busy", { status: 503 });
      const answered = await harness(({ method }, index) =>
        method === "POST"
          ? sse([primed])
          : index === 1
            ? fail()
            : sse(['id: e2\nevent: message\ndata: {"jsonrpc":"2.0","id":3,"result":{}}\n\n']),
      );
      await settle();
      expect(
        answered.seen.map((s) => [s.method, s.lastEventId]),
        failure,
      ).toEqual([
        ["POST", null],
        ["GET", "e1"],
        ["GET", "e1"],
      ]);
      expect(answered.told, failure).toEqual([{ answer: { jsonrpc: "2.0", id: 3, result: {} } }]);
      expect(answered.answered(), failure).toEqual([{ jsonrpc: "2.0", id: 3, result: {} }]);

      const lost = await harness(({ method }) => (method === "POST" ? sse([primed]) : fail()));
      await settle();
      // Given up at the second failure (the SDK may go on resuming the session's stream itself).
      expect(lost.seen.filter((s) => s.method === "GET").length, failure).toBeGreaterThanOrEqual(2);
      expect(lost.told, failure).toHaveLength(1);
      expect(lost.told[0], failure).toHaveProperty("failure");
      expect(lost.answered(), failure).toHaveLength(1);
    }
  });

  // The SDK follows no redirect that adds credentials, nor one with an empty Location.
  it("does not leave a paid call waiting when its resumption is redirected to a same-origin URL with userinfo", async () => {
    const h = await harness(({ method }) =>
      method === "POST"
        ? sse([primed])
        : new Response(null, {
            status: 307,
            headers: { location: "http://user:pw@127.0.0.1:9/mcp" },
          }),
    );
    await settle();
    expect(h.told).toHaveLength(1);
    expect(h.answered()).toHaveLength(1);
  });

  it("does not leave a paid call waiting when its resumption is a redirect with an empty Location", async () => {
    const h = await harness(({ method }) =>
      method === "POST"
        ? sse([primed])
        : new Response(null, { status: 302, headers: { location: "" } }),
    );
    await settle();
    expect(h.told).toHaveLength(1);
    expect(h.answered()).toHaveLength(1);
  });

  it("break-off right after an event with an id: the SDK resumes after it as the proxy expects", async () => {
    const h = await harness(({ method }) =>
      method === "POST"
        ? sse(
            [
              'id: e1\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n',
            ],
            new TypeError("terminated"),
          )
        : sse(['id: e2\nevent: message\ndata: {"jsonrpc":"2.0","id":3,"result":{}}\n\n']),
    );
    await settle();
    expect(h.seen.map((s) => [s.method, s.lastEventId])).toEqual([
      ["POST", null],
      ["GET", "e1"],
    ]);
    expect(h.told).toHaveLength(1);
    expect(h.answered()).toHaveLength(1);
  });

  // SSE allows CR-only line ends; the SDK's parser dispatches an event ended by "\r\r" only once
  // LF or more follows, which the stream's end never brings: the proxy ends it.
  it("the SDK resumes (or the call fails at once) when the stream ends with a CR-only event end after its priming id", async () => {
    const h = await harness(({ method }) =>
      method === "POST"
        ? sse(["id: e1\rdata: \r\r"])
        : sse(['id: e2\nevent: message\ndata: {"jsonrpc":"2.0","id":3,"result":{}}\n\n']),
    );
    await settle();
    expect(h.told).toHaveLength(1);
    expect(h.answered()).toHaveLength(1);
  });

  it("the SDK gets the answer the proxy filed the receipt with, when it ends the stream with a CR-only event end", async () => {
    const h = await harness(() =>
      sse(['event: message\rdata: {"jsonrpc":"2.0","id":3,"result":{}}\r\r']),
    );
    await settle();
    expect(h.told).toEqual([{ answer: { jsonrpc: "2.0", id: 3, result: {} } }]);
    expect(h.answered()).toHaveLength(1);
  });
});
