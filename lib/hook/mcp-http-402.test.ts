import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import type { ElicitParams, PaymentAnswer, PaymentChallenge, ReceiptParams } from "../messages";
import { installFetchHook, type McpSource } from "./fetch";
import type { JsonRpcRequest } from "./jsonrpc";
import { createMcpHook } from "./mcp-hook";
import type { WalletLink } from "./wallet-link";

type Win = Window & typeof globalThis;
const endpoint = "https://mcp.example/mcp";
/** Seed 004's price: an HTTP 402 with an x402 `accepts[]` body. */
const accepts = { x402Version: 1, accepts: [{ scheme: "exact", network: "base-sepolia" }] };
const httpPay: PaymentAnswer = { paymentId: "h1", header: { name: "X-PAYMENT", value: "signed" } };
const form = {
  jsonrpc: "2.0",
  id: "e1",
  method: "elicitation/create",
  params: { message: "Your name?", requestedSchema: { type: "object", properties: {} } },
};

/** The server's answer to the page client's `initialize`, in session `headers`. */
function initialized(message: JsonRpcRequest, headers: Record<string, string>): Response {
  const result = {
    protocolVersion: "2025-06-18",
    capabilities: { tools: {} },
    serverInfo: { name: "paid", version: "1" },
  };
  return Response.json({ jsonrpc: "2.0", id: message.id, result }, { headers });
}

/**
 * A server pricing its tool with seed 004's HTTP 402 whose paid retry is
 * answered on an SSE stream that first asks `elicitation` and, once it is
 * answered, gives the call's result. The answers it gets are noted.
 */
function pricedServer(elicitation: Record<string, unknown>) {
  const answers: unknown[] = [];
  let answered: () => void = () => undefined;
  const answer = new Promise<void>((resolve) => {
    answered = resolve;
  });
  const encoder = new TextEncoder();
  const win = {
    location: { href: "https://agent.example/app" },
    document: { baseURI: "https://agent.example/app" },
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(input instanceof Request ? input : new URL(String(input)), init);
      const message = (await request.json()) as JsonRpcRequest & { result?: unknown };
      const headers = { "mcp-session-id": "s1" };
      if (message.method === "initialize") return initialized(message, headers);
      if (message.method === undefined) {
        answers.push(message);
        answered();
        return new Response(null, { status: 202 });
      }
      if (message.id === undefined) return new Response(null, { status: 202 });
      if (!request.headers.has("x-payment")) return Response.json(accepts, { status: 402 });
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(elicitation)}\n\n`));
          await answer;
          const result = { content: [{ type: "text", text: "verified" }] };
          const done = { jsonrpc: "2.0", id: message.id, result };
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(done)}\n\n`));
          controller.close();
        },
      });
      return new Response(body, {
        headers: { ...headers, "content-type": "text/event-stream" },
      });
    },
  } as unknown as Win;
  return { win, answers };
}

function payingWallet() {
  const elicited: ElicitParams[] = [];
  const receipts: ReceiptParams[] = [];
  const asked: PaymentChallenge[] = [];
  const wallet: WalletLink = {
    pay: async (challenge) => {
      asked.push(challenge);
      return httpPay;
    },
    receipt: (params) => receipts.push(params),
    elicit: async (params) => {
      elicited.push(params);
      return { action: "accept", content: { confirmed: true } };
    },
    reportMcpServer: () => undefined,
  };
  return { wallet, elicited, receipts, asked };
}

async function pageClient(win: Win, wallet: WalletLink, capabilities = {}) {
  const hook = createMcpHook();
  const mcp: McpSource = { loaded: () => hook, load: async () => hook };
  installFetchHook(win, wallet, mcp);
  const client = new Client({ name: "agent", version: "1" }, { capabilities });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint), {
      fetch: (input, init) => win.fetch(input, init),
    }),
  );
  return client;
}

describe("a tool call priced by seed 004's HTTP 402, its paid retry answered on SSE", () => {
  it("has a form the page's client never declared declined by the wallet, and the result reaches the page", async () => {
    const server = pricedServer(form);
    const { wallet } = payingWallet();
    const client = await pageClient(server.win, wallet);
    const result = await client.callTool({ name: "verify_agent", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "verified" }]);
    expect(server.answers).toEqual([{ jsonrpc: "2.0", id: "e1", result: { action: "decline" } }]);
    await client.close();
  });

  it("tells the wallet, beside the price of the address, the tool call the page's POST carries", async () => {
    const { wallet, asked } = payingWallet();
    const client = await pageClient(pricedServer(form).win, wallet);
    await client.callTool({ name: "verify_agent", arguments: { agent: "a1" } });
    expect(asked).toEqual([
      {
        transport: "http",
        url: endpoint,
        method: "POST",
        body: JSON.stringify(accepts),
        paymentRequiredHeader: null,
        call: { tool: "verify_agent", arguments: { agent: "a1" } },
      },
    ]);
    await client.close();
  });

  it("has a payment elicitation on it answered by the wallet, bound to the call", async () => {
    const quoted = {
      ...form,
      params: { ...form.params, _meta: { "stipendex/quote": { jws: "q" } } },
    };
    const server = pricedServer(quoted);
    const { wallet, elicited } = payingWallet();
    const client = await pageClient(server.win, wallet);
    const result = await client.callTool({ name: "verify_agent", arguments: { agent: "a1" } });
    expect(result.content).toEqual([{ type: "text", text: "verified" }]);
    expect(elicited).toEqual([
      {
        server: endpoint,
        params: quoted.params,
        call: { tool: "verify_agent", arguments: { agent: "a1" } },
      },
    ]);
    expect(server.answers).toEqual([
      { jsonrpc: "2.0", id: "e1", result: { action: "accept", content: { confirmed: true } } },
    ]);
    await client.close();
  });
});

/**
 * A server pricing its tool with seed 004's HTTP 402 whose paid retry is
 * answered with a JSON-RPC error, in JSON or on SSE, with `settle` as its
 * X-PAYMENT-RESPONSE when given.
 */
function erringServer(type: "json" | "sse", settle: string | null) {
  return {
    location: { href: "https://agent.example/app" },
    document: { baseURI: "https://agent.example/app" },
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(input instanceof Request ? input : new URL(String(input)), init);
      const message = (await request.json()) as JsonRpcRequest;
      const headers: Record<string, string> = { "mcp-session-id": "s1" };
      if (message.method === "initialize") return initialized(message, headers);
      if (message.id === undefined) return new Response(null, { status: 202 });
      if (!request.headers.has("x-payment")) return Response.json(accepts, { status: 402 });
      if (settle) headers["x-payment-response"] = settle;
      const error = { code: -32000, message: "verify_agent crashed" };
      const answer = { jsonrpc: "2.0", id: message.id, error };
      if (type === "json") return Response.json(answer, { headers });
      return new Response(`data: ${JSON.stringify(answer)}\n\n`, {
        headers: { ...headers, "content-type": "text/event-stream" },
      });
    },
  } as unknown as Win;
}

describe("a tool call priced by seed 004's HTTP 402, its paid retry answered with a JSON-RPC error", () => {
  // Not a refusal (only -32402 and x402's PaymentRequired are): the server may have taken the
  // paid call, and settled it when its settle header says so (seed 004 settles before the tool runs).
  it.each<[string, "json" | "sse", string | null]>([
    ["in JSON", "json", null],
    ["on SSE", "sse", null],
    ["in JSON with its settle header", "json", "settled"],
    ["on SSE with its settle header", "sse", "settled"],
  ])("is filed as an error answer %s, and the page gets the error", async (_how, type, settle) => {
    const { wallet, receipts } = payingWallet();
    const client = await pageClient(erringServer(type, settle), wallet);
    await expect(client.callTool({ name: "verify_agent", arguments: {} })).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining("verify_agent crashed"),
    });
    await expect
      .poll(() => receipts)
      .toEqual([
        {
          paymentId: "h1",
          status: 200,
          receipt: settle,
          unanswered: "error-answer",
          answerError: { code: -32000, message: "verify_agent crashed" },
        },
      ]);
    await client.close();
  });
});

/** A server pricing its tool with seed 004's HTTP 402 whose paid retry's 2xx brings no answer to the call. */
function silentServer(type: "json" | "sse" | "text") {
  return {
    location: { href: "https://agent.example/app" },
    document: { baseURI: "https://agent.example/app" },
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(input instanceof Request ? input : new URL(String(input)), init);
      if (!request.headers.has("x-payment")) return Response.json(accepts, { status: 402 });
      const progress = { jsonrpc: "2.0", method: "notifications/progress", params: {} };
      if (type === "json") return Response.json({ ok: true });
      if (type === "text") return new Response("done");
      return new Response(`data: ${JSON.stringify(progress)}\n\n`, {
        headers: { "content-type": "text/event-stream" },
      });
    },
  } as unknown as Win;
}

describe("a tool call priced by seed 004's HTTP 402, its paid retry's 2xx without the call's answer", () => {
  // As the proxy files it (call-answers.ts): the server may have taken the paid call all the same.
  it.each<[string, "json" | "sse" | "text", string]>([
    ["JSON that is no JSON-RPC answer", "json", "not-an-answer"],
    ["an SSE stream that ends without it", "sse", "stream-ended"],
    ["a body neither JSON nor SSE", "text", "not-an-answer"],
  ])("is filed unanswered: %s", async (_how, type, unanswered) => {
    const { wallet, receipts } = payingWallet();
    const win = silentServer(type);
    const hook = createMcpHook();
    installFetchHook(win, wallet, { loaded: () => hook, load: async () => hook });
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "verify_agent" } };
    const response = await win.fetch(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(call),
    });
    await response.text();
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "h1", status: 200, receipt: null, unanswered }]);
  });
});
