import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { type Listening, listen } from "../../demo/listen";
import type { PaymentAnswer, PaymentChallenge, ReceiptParams, Unanswered } from "../messages";
import { createForwardingServer } from "./forward";
import type { ProxyWallet } from "./paid-call";

/** Seed 004's price for one call: an x402 `accepts[]` in the body of an HTTP 402. */
const ACCEPTS = {
  accepts: [
    {
      scheme: "exact",
      network: "base-sepolia",
      amount: "10000",
      asset: "USDC",
      payTo: "0x2096000000000000000000000000000000000001",
      extra: { name: "USDC", version: "2" },
    },
  ],
};

/** How a server answers a paid retry instead of its tool: any HTTP answer, or none. */
type PaidAnswer = (req: express.Request, res: express.Response) => void;

/** A paid retry answered with `body` as `type`, with `status`. */
const answers =
  (status: number, type: string, body: string): PaidAnswer =>
  (_req, res) => {
    res.status(status).type(type).send(body);
  };

/** A paid retry's answer without the call's, and what the host and the wallet are told of it. */
type NoAnswer = [how: string, PaidAnswer, status: number, why: string, Unanswered];

/** Paid retries answered by an SSE stream that brings no answer to the call. */
const SSE_WITHOUT_ANSWER: NoAnswer[] = [
  [
    "with an SSE answer that ends without the call's answer",
    answers(200, "text/event-stream", ": working\n\n"),
    200,
    "HTTP 200 with an SSE stream that ended without answering the call",
    "stream-ended",
  ],
  [
    "with an SSE answer that breaks off",
    (_req, res) => {
      res.status(200).type("text/event-stream").write(": working\n\n");
      setTimeout(() => res.socket?.destroy(), 50);
    },
    200,
    "HTTP 200 with an SSE stream that broke off before answering the call: ",
    "stream-ended",
  ],
];

/**
 * A Streamable HTTP MCP server whose paid tool answers its tools/call with
 * HTTP 402 until the retry carries X-PAYMENT (seed 004), or, with `jsonRpc`,
 * with HTTP 402 carrying the call's JSON-RPC -32402 until `_meta` pays it;
 * `paidAnswer`, when given, answers the paid retry instead of the tool, and
 * `resumed` a GET resuming its SSE stream (with Last-Event-ID).
 */
async function startPaidServer(
  jsonRpc = false,
  paidAnswer?: PaidAnswer,
  resumed?: PaidAnswer,
): Promise<Listening & { payments: string[]; methods: string[] }> {
  const payments: string[] = [];
  /** Every JSON-RPC method the server was sent, in order. */
  const methods: string[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const app = express();
  app.use(express.json());
  app.all("/mcp", async (req, res) => {
    if (resumed && req.method === "GET" && req.get("last-event-id")) return resumed(req, res);
    const body = (req.body ?? {}) as {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
    };
    if (body.method) methods.push(body.method);
    const meta = body.params?._meta as Record<string, unknown> | undefined;
    const paid = req.get("X-PAYMENT") ?? (meta?.["stipendex/payment"] as string | undefined);
    if (body.method === "tools/call" && body.params?.name === "verify_agent") {
      if (!paid) {
        if (!jsonRpc) return res.status(402).json(ACCEPTS);
        const error = { code: -32402, message: "Payment required", data: { quote: "q" } };
        return res.status(402).json({ jsonrpc: "2.0", id: body.id, error });
      }
      payments.push(paid);
      if (paidAnswer) return paidAnswer(req, res);
      res.set("X-PAYMENT-RESPONSE", "settled");
    }
    const known = sessions.get(req.get("Mcp-Session-Id") ?? "");
    if (known) return known.handleRequest(req, res, req.body);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    const server = new Server({ name: "paid", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({
      content: [{ type: "text", text: "trust score 97" }],
    }));
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return { ...(await listen(app, 0)), payments, methods };
}

/**
 * A wallet that pays (or declines) every request, noting what it was asked and
 * told; `whilePaying` runs before it answers, with the request's signal.
 */
function payingWallet(decline = false, whilePaying?: (signal?: AbortSignal) => Promise<void>) {
  const asked: PaymentChallenge[] = [];
  const receipts: ReceiptParams[] = [];
  const wallet: ProxyWallet = {
    pay: async (challenge, signal) => {
      asked.push(challenge);
      await whilePaying?.(signal);
      if (decline) throw new Error("You declined the payment");
      const answer: PaymentAnswer =
        challenge.transport === "http"
          ? { paymentId: "p1", header: { name: "X-PAYMENT", value: "signed-x402" } }
          : { paymentId: "p1", meta: { key: "stipendex/payment", value: "signed-proof" } };
      return answer;
    },
    receipt: async (params) => {
      receipts.push(params);
    },
    elicit: async () => ({ action: "cancel" }),
    report: async () => undefined,
  };
  return { wallet, asked, receipts };
}

/** The host's verify_agent call fails at once, told the wallet paid and why `server` gave no answer. */
async function expectToldPaid(host: Client, server: string, why: string): Promise<void> {
  await expect(
    host.callTool({ name: "verify_agent", arguments: {} }, undefined, { timeout: 10_000 }),
  ).rejects.toMatchObject({
    code: -32603,
    message: expect.stringContaining(
      `The Stipendex wallet paid for verify_agent, and the MCP server at ${server}/mcp gave no answer to the paid call: ${why}`,
    ),
  });
}

async function hostThroughProxy(upstream: string, wallet: ProxyWallet) {
  const { server: proxy } = createForwardingServer({
    upstream: new URL(upstream),
    wallet,
    version: "t",
  });
  const [hostSide, proxySide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(proxySide);
  const client = new Client({ name: "host", version: "1.0.0" });
  await client.connect(hostSide);
  return client;
}

describe("the proxy, with a server that answers a tools/call with HTTP 402", () => {
  const open: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    // The host first: its proxy ends the upstream session while the server still listens.
    for (const o of open.splice(0)) await o.close();
  });

  it("pays seed 004's x402 price with X-PAYMENT and hands the host the paid result", async () => {
    const server = await startPaidServer();
    const { wallet, asked, receipts } = payingWallet();
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    const result = await host.callTool({ name: "verify_agent", arguments: { agent: "a" } });
    expect(result.content).toEqual([{ type: "text", text: "trust score 97" }]);
    expect(server.payments).toEqual(["signed-x402"]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      transport: "http",
      method: "POST",
      url: `${server.url}/mcp`,
      // The price names the address only: the window is told the call the host says it is.
      call: { tool: "verify_agent", arguments: { agent: "a" } },
    });
    expect(JSON.parse((asked[0] as { body: string }).body)).toEqual(ACCEPTS);
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "p1", status: 200, receipt: "settled" }]);
  });

  it("tells the host the call needs a payment the wallet did not make, and why, when it declines", async () => {
    const server = await startPaidServer();
    const { wallet, asked } = payingWallet(true);
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    await expect(host.callTool({ name: "verify_agent", arguments: {} })).rejects.toMatchObject({
      code: -32402,
      message: expect.stringContaining(
        "verify_agent needs a payment and the Stipendex wallet did not make it: You declined the payment",
      ),
      // The server's price, as its 402 said it.
      data: { upstream: expect.stringContaining('"accepts"') },
    });
    expect(asked).toHaveLength(1);
    expect(server.payments).toEqual([]);
  });

  it("pays a JSON-RPC -32402 sent with HTTP 402 in _meta, as the MCP binding says", async () => {
    const server = await startPaidServer(true);
    const { wallet, asked } = payingWallet();
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    const result = await host.callTool({ name: "verify_agent", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "trust score 97" }]);
    expect(asked).toMatchObject([{ transport: "mcp", tool: "verify_agent" }]);
    expect(server.payments).toEqual(["signed-proof"]);
  });

  // Seed 004: a server that cannot read the payment "gets back a 402 with error: payment_parse".
  // envelope.md §7: the wallet records the refusal and the host gets the original answer.
  it("reports a paid retry refused with a 402 in plain text, and tells the host the server refused it", async () => {
    const said = '{"error":"payment_parse"}';
    const server = await startPaidServer(true, answers(402, "text/plain", said));
    const { wallet, receipts } = payingWallet();
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    await expect(host.callTool({ name: "verify_agent", arguments: {} })).rejects.toMatchObject({
      code: -32402,
      message: expect.stringContaining(
        "The MCP server refused the payment the Stipendex wallet made for verify_agent",
      ),
      data: { upstream: { code: -32402, message: "Payment required", data: { quote: "q" } } },
    });
    expect(receipts).toEqual([
      { paymentId: "p1", status: 402, receipt: null, error: { code: 402, message: said } },
    ]);
  });

  // A 2xx is no refusal: the server took the paid call (the chain tells whether it collected).
  // envelope.md section 7: a fresh price inside the same call is not paid without a new decision.
  it.each<[string, "json" | "sse"]>([
    ["in JSON", "json"],
    ["on SSE", "sse"],
  ])(
    "never pays a price the paid retry of an HTTP 402 answers with %s: the server refused the payment made",
    async (_how, type) => {
      const price = { code: -32402, message: "Payment required", data: { quote: "q2" } };
      const server = await startPaidServer(false, (req, res) => {
        const answer = { jsonrpc: "2.0", id: (req.body as { id: number }).id, error: price };
        if (type === "json") return res.json(answer);
        res.type("text/event-stream").send(`data: ${JSON.stringify(answer)}\n\n`);
      });
      const { wallet, asked, receipts } = payingWallet();
      const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
      open.push(host, server);
      await expect(host.callTool({ name: "verify_agent", arguments: {} })).rejects.toMatchObject({
        code: -32402,
        message: expect.stringContaining("refused the payment the Stipendex wallet made"),
      });
      expect(asked.map((challenge) => challenge.transport)).toEqual(["http"]);
      expect(server.payments).toEqual(["signed-x402"]);
      await expect.poll(() => receipts).toHaveLength(1);
      expect(receipts[0]).toMatchObject({ paymentId: "p1", error: { code: -32402 } });
    },
  );

  it("reports a paid retry answered 200 in plain text without an error, and hands the host the failure", async () => {
    const server = await startPaidServer(true, answers(200, "text/plain", "done"));
    const { wallet, receipts } = payingWallet();
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    await expect(host.callTool({ name: "verify_agent", arguments: {} })).rejects.toMatchObject({
      message: expect.stringContaining("Unexpected content type"),
    });
    expect(receipts).toEqual([
      { paymentId: "p1", status: 200, receipt: null, unanswered: "not-an-answer" },
    ]);
  });

  // No refusal either: the server may have taken the call; the chain check settles the money.
  // The SDK's transport fails on seed 004's payment_parse sent with 200 with a schema error, and
  // waits for the call's answer (until the host gives up; the proxy's own timeout is 30 minutes)
  // after JSON-RPC that is not it, or an SSE answer that ends or breaks off without it.
  it.each<NoAnswer>([
    // Then undici's words for it, e.g. "fetch failed (other side closed)".
    ["its connection reset", (req) => req.socket.destroy(), 0, "fetch failed (", "no-response"],
    [
      "200 with JSON that is no JSON-RPC",
      answers(200, "application/json", '{"error":"payment_parse"}'),
      200,
      'HTTP 200 with JSON that does not answer the call: {"error":"payment_parse"}',
      "not-an-answer",
    ],
    [
      "200 with a JSON-RPC notification",
      answers(200, "application/json", '{"jsonrpc":"2.0","method":"notifications/message"}'),
      200,
      'HTTP 200 with JSON that does not answer the call: {"jsonrpc":"2.0","method":"notifications/message"}',
      "not-an-answer",
    ],
    [
      "202 Accepted, with no body",
      (_req, res) => {
        res.status(202).end();
      },
      202,
      "HTTP 202 without answering the call",
      "not-an-answer",
    ],
    ...SSE_WITHOUT_ANSWER,
  ])(
    "reports a paid retry answered %s without a refusal, and tells the host at once that the wallet paid",
    async (_how, paidAnswer, status, why, unanswered) => {
      const server = await startPaidServer(true, paidAnswer);
      const { wallet, receipts } = payingWallet();
      const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
      open.push(host, server);
      await expectToldPaid(host, server.url, why);
      expect(receipts).toEqual([{ paymentId: "p1", status, receipt: null, unanswered }]);
    },
  );

  it("reports a paid retry to a server gone while the wallet paid, and tells the host the wallet paid", async () => {
    let server: Listening | undefined;
    const { wallet, receipts } = payingWallet(false, () => server?.close() ?? Promise.resolve());
    server = await startPaidServer(true);
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    await expect(host.callTool({ name: "verify_agent", arguments: {} })).rejects.toMatchObject({
      code: -32603,
      // Refused, or reset when the client tries the connection it kept: the platform says which.
      message: expect.stringMatching(
        /The Stipendex wallet paid for verify_agent, .* no answer to the paid call: fetch failed \(.+\)$/,
      ),
    });
    expect(receipts).toEqual([
      { paymentId: "p1", status: 0, receipt: null, unanswered: "no-response" },
    ]);
  });

  // The person decided before the host's cancellation reached the wallet: the payment is signed.
  it("reports a payment the wallet made as the host cancelled its call, which is not retried", async () => {
    const cancel = new AbortController();
    const { wallet, receipts } = payingWallet(false, async (signal) => {
      const withdrawn = new Promise((resolve) => signal?.addEventListener("abort", resolve));
      cancel.abort("the person stopped the agent");
      await withdrawn;
    });
    const server = await startPaidServer(true);
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    const call = host.callTool({ name: "verify_agent", arguments: {} }, undefined, {
      signal: cancel.signal,
    });
    await expect(call).rejects.toThrow("the person stopped the agent");
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "p1", status: 0, receipt: null, unanswered: "not-sent" }]);
    expect(server.payments).toEqual([]);
  });
});

describe("the proxy, with seed 004's server: a paid retry of its HTTP 402 that fails", () => {
  const open: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    for (const one of open.splice(0)) await one.close();
  });

  // Seed 004: "We return that error text verbatim in the 402 retry response so your client can fix it."
  it("tells the host the server refused the payment the wallet made, in the server's words", async () => {
    const said = '{"error":"FiatTokenV2_2: invalid signature"}';
    const server = await startPaidServer(false, answers(402, "application/json", said));
    const { wallet, receipts } = payingWallet();
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    await expect(host.callTool({ name: "verify_agent", arguments: {} })).rejects.toMatchObject({
      code: -32402,
      message: expect.stringContaining(
        `The MCP server refused the payment the Stipendex wallet made for verify_agent: HTTP 402: ${said}`,
      ),
    });
    expect(receipts).toEqual([
      { paymentId: "p1", status: 402, receipt: null, error: { code: 402, message: said } },
    ]);
  });

  it.each<[string, PaidAnswer, number, string, Unanswered | undefined]>([
    ["its connection reset", (req) => req.socket.destroy(), 0, "fetch failed", "no-response"],
    [
      "200 with JSON that is no JSON-RPC",
      answers(200, "application/json", '{"error":"payment_parse"}'),
      200,
      "HTTP 200 with JSON that does not answer the call",
      "not-an-answer",
    ],
    [
      "503 with a gateway's page",
      answers(503, "text/html", "<h1>Service Unavailable</h1>"),
      503,
      "HTTP 503 Service Unavailable",
      undefined,
    ],
    [
      "200 with JSON that breaks off",
      (req, res) => {
        res.status(200).type("application/json").write('{"jsonrpc":"2.0","id":');
        setTimeout(() => req.socket.destroy(), 20);
      },
      200,
      "terminated",
      "no-response",
    ],
    [
      "200 in plain text",
      answers(200, "text/plain", "done"),
      200,
      "HTTP 200 with text/plain, which does not answer the call",
      "not-an-answer",
    ],
    ...SSE_WITHOUT_ANSWER,
  ])(
    "tells the host at once that the wallet paid, when the paid retry is answered %s",
    async (_how, paidAnswer, status, why, unanswered) => {
      const server = await startPaidServer(false, paidAnswer);
      const { wallet, receipts } = payingWallet();
      const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
      open.push(host, server);
      await expectToldPaid(host, server.url, why);
      expect(server.payments).toEqual(["signed-x402"]);
      await expect
        .poll(() => receipts)
        .toEqual([
          { paymentId: "p1", status, receipt: null, ...(unanswered ? { unanswered } : {}) },
        ]);
    },
  );

  it("hands the host the paid result its SSE answer carries, and files the receipt", async () => {
    const server = await startPaidServer(false, (req, res) => {
      const result = { content: [{ type: "text", text: "trust score 97" }] };
      const answer = JSON.stringify({ jsonrpc: "2.0", id: req.body.id, result });
      res.status(200).set("X-PAYMENT-RESPONSE", "settled").type("text/event-stream");
      res.end(`: working\n\nevent: message\ndata: ${answer}\n\n`);
    });
    const { wallet, receipts } = payingWallet();
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    const result = await host.callTool({ name: "verify_agent", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "trust score 97" }]);
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "p1", status: 200, receipt: "settled" }]);
  });

  // Not a refusal (only -32402 and x402's PaymentRequired are): the server may have taken the
  // paid call, and settled it when its settle header says so (seed 004 settles before the tool runs).
  it.each<[string, "json" | "sse", string | null]>([
    ["in JSON", "json", null],
    ["on SSE", "sse", null],
    ["in JSON with its settle header", "json", "settled"],
    ["on SSE with its settle header", "sse", "settled"],
  ])(
    "files a paid retry answered with a JSON-RPC error %s as an error answer, and hands the host the error",
    async (_how, type, settle) => {
      const server = await startPaidServer(false, (req, res) => {
        const error = { code: -32000, message: "verify_agent crashed" };
        const answer = { jsonrpc: "2.0", id: req.body.id, error };
        if (settle) res.set("X-PAYMENT-RESPONSE", settle);
        if (type === "json") return res.status(200).json(answer);
        res
          .status(200)
          .type("text/event-stream")
          .end(`data: ${JSON.stringify(answer)}\n\n`);
      });
      const { wallet, receipts } = payingWallet();
      const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
      open.push(host, server);
      await expect(host.callTool({ name: "verify_agent", arguments: {} })).rejects.toMatchObject({
        code: -32000,
        message: expect.stringContaining("verify_agent crashed"),
      });
      await expect
        .poll(() => receipts)
        .toEqual([
          {
            paymentId: "p1",
            status: 200,
            receipt: settle,
            unanswered: "error-answer",
            answerError: { code: -32000, message: "verify_agent crashed" },
          },
        ]);
    },
  );

  // MCP Streamable HTTP: a client resumes a stream whose events had ids by GET with Last-Event-ID;
  // the proxy is the client (its SDK resumes), so it leaves the call to the resumed stream.
  it("leaves the call to the resumed stream when the paid SSE answer has event ids, and files its answer", async () => {
    let callId: unknown;
    const server = await startPaidServer(
      false,
      (req, res) => {
        callId = req.body.id;
        res.status(200).type("text/event-stream").end("id: e1\ndata: \n\n");
      },
      (req, res) => {
        const result = {
          content: [{ type: "text", text: `resumed after ${req.get("last-event-id")}` }],
        };
        const answer = JSON.stringify({ jsonrpc: "2.0", id: callId, result });
        res.status(200).type("text/event-stream").end(`id: e2\ndata: ${answer}\n\n`);
      },
    );
    const { wallet, receipts } = payingWallet();
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    const result = await host.callTool({ name: "verify_agent", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "resumed after e1" }]);
    // As the page hook files it: the result came, on the resumed stream.
    await expect.poll(() => receipts).toEqual([{ paymentId: "p1", status: 200, receipt: null }]);
  });

  // The session's end gives up waiting for resumptions, then ends the upstream session, which
  // ends (or breaks off) a paid call's stream still open: filed then, not left to a resumption.
  it("files the paid call's receipt when the host leaves while its resumable SSE answer is open", async () => {
    const held: express.Response[] = [];
    const server = await startPaidServer(false, (_req, res) => {
      res.status(200).type("text/event-stream").set("X-PAYMENT-RESPONSE", "settled");
      res.flushHeaders();
      res.write("id: e1\ndata: \n\n");
      held.push(res);
    });
    const { wallet, receipts } = payingWallet();
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(server);
    const call = host.callTool({ name: "verify_agent", arguments: {} }).catch((e: unknown) => e);
    await expect.poll(() => held.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await host.close();
    await call;
    await expect
      .poll(() => receipts, { timeout: 3_000 })
      .toMatchObject([{ paymentId: "p1", status: 200, receipt: "settled" }]);
  });

  // The SSE standard (and the SDK's parser) ignores an id holding U+0000: the SDK does not resume.
  it("tells the host at once when the paid SSE answer ends after an id the SDK does not take", async () => {
    const server = await startPaidServer(false, (_req, res) => {
      res.status(200).type("text/event-stream").end("id: e\u00001\ndata: \n\n");
    });
    const { wallet, receipts } = payingWallet();
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    await expect(
      host.callTool({ name: "verify_agent", arguments: {} }, undefined, { timeout: 3_000 }),
    ).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("The Stipendex wallet paid for verify_agent"),
    });
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "p1", status: 200, receipt: null, unanswered: "stream-ended" }]);
  });

  // The host's SDK reads an event the stream's end cut short once the proxy ends it: so does the wallet.
  it("files as answered a paid call whose result the host got in an unterminated last event", async () => {
    const server = await startPaidServer(false, (req, res) => {
      const answer = JSON.stringify({
        jsonrpc: "2.0",
        id: req.body.id,
        result: { content: [{ type: "text", text: "trust score 97" }] },
      });
      res.status(200).type("text/event-stream").set("X-PAYMENT-RESPONSE", "settled");
      res.end(`event: message\ndata: ${answer}`);
    });
    const { wallet, receipts } = payingWallet();
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    const result = await host.callTool({ name: "verify_agent", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "trust score 97" }]);
    await expect.poll(() => receipts).toHaveLength(1);
    expect(receipts).toEqual([{ paymentId: "p1", status: 200, receipt: "settled" }]);
  });

  it("tells the host at once that the wallet paid, when the paid SSE answer cannot be resumed", async () => {
    const server = await startPaidServer(
      false,
      (_req, res) => {
        res.status(200).type("text/event-stream").end("id: e1\ndata: \n\n");
      },
      (_req, res) => {
        res.status(405).end();
      },
    );
    const { wallet, receipts } = payingWallet();
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    await expectToldPaid(
      host,
      server.url,
      "HTTP 200 with an SSE stream that ended without answering the call, " +
        "and its resumption was answered HTTP 405 Method Not Allowed",
    );
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "p1", status: 200, receipt: null, unanswered: "stream-ended" }]);
  });

  // The SDK gives the host's call up upstream with notifications/cancelled, not the fetch's signal.
  it("withdraws the price from the wallet when the host cancels its call while the wallet asks", async () => {
    const cancel = new AbortController();
    let withdrawn: unknown;
    const { wallet, receipts } = payingWallet(false, async (signal) => {
      const aborted = new Promise((resolve) => signal?.addEventListener("abort", resolve));
      cancel.abort("the agent gave up");
      await aborted;
      withdrawn = signal?.reason;
    });
    const server = await startPaidServer(false);
    const host = await hostThroughProxy(`${server.url}/mcp`, wallet);
    open.push(host, server);
    const call = host.callTool({ name: "verify_agent", arguments: {} }, undefined, {
      signal: cancel.signal,
    });
    await expect(call).rejects.toThrow("the agent gave up");
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "p1", status: 0, receipt: null, unanswered: "not-sent" }]);
    expect(withdrawn).toBe("cancelled by the host");
    expect(server.payments).toEqual([]);
    // Closed once the cancellation has reached the server: a fetch still out is aborted by the close.
    await expect.poll(() => server.methods).toContain("notifications/cancelled");
  });
});
