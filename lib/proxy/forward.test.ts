import { randomUUID } from "node:crypto";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  ElicitRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import express from "express";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Listening, listen } from "../../demo/listen";
import type { ElicitParams, McpServerSighting } from "../messages";
import { createForwardingServer } from "./forward";
import type { ProxyWallet } from "./paid-call";
import { serveStdio } from "./stdio";

const TOOLS = [
  {
    name: "search",
    inputSchema: { type: "object" as const },
    _meta: { "stipendex/pricing": { model: "per_call", estimate: "0.005 USD" } },
  },
];

/** A real Streamable HTTP MCP server with the few behaviours forwarding must keep. */
function upstreamSession(json: boolean): Server {
  const server = new Server(
    { name: "upstream-test", version: "9.9.9" },
    {
      capabilities: {
        tools: {},
        logging: {},
        experimental: { "stipendex/payments": { version: "0.1" } },
      },
      instructions: "Search politely",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    if (name === "fails") throw new McpError(-32050, "Quota gone", { retryAfter: 60 });
    if (name === "priced") throw new McpError(-32402, "Payment required", { quote: "q" });
    if (name === "buy") {
      // On the call's own answer when that is SSE; a JSON answer has no room: the session's stream.
      const answer = await server.elicitInput(
        {
          message: "Pay for this call?",
          requestedSchema: { type: "object", properties: {} },
          _meta: { "stipendex/quote": { stipendex: "quote/0.1" } },
        },
        json ? {} : { relatedRequestId: extra.requestId },
      );
      return { content: [{ type: "text", text: JSON.stringify(answer) }] };
    }
    if (name === "buy-in-time") {
      // The SDK's client ignores a cancellation of request id 0 (typescript-sdk#2283, fixed in its
      // v2): a ping first, so the elicitation is the session's second request.
      await server.ping();
      // The SDK gives up an elicitation after its timeout, telling the client (notifications/cancelled).
      const answer = await server
        .elicitInput(
          {
            message: "Pay within a moment?",
            requestedSchema: { type: "object", properties: {} },
            _meta: { "stipendex/quote": { stipendex: "quote/0.1" } },
          },
          { ...(json ? {} : { relatedRequestId: extra.requestId }), timeout: 300 },
        )
        .catch((error: unknown) => ({ gaveUp: String(error) }));
      // A server that goes on working after giving up (its cancellation goes out before the answer).
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { content: [{ type: "text", text: JSON.stringify(answer) }] };
    }
    if (name === "ask") {
      const answer = await server.elicitInput({
        message: "Which city?",
        requestedSchema: { type: "object", properties: { city: { type: "string" } } },
      });
      return { content: [{ type: "text", text: JSON.stringify(answer) }] };
    }
    await server.sendLoggingMessage({ level: "info", data: "searching" });
    return { content: [{ type: "text", text: "results" }], _meta: { seen: request.params._meta } };
  });
  return server;
}

/** The test upstream: what it saw of its sessions, and a way to forget them all. */
interface Upstream extends Listening {
  /** Sessions a client ended with a DELETE. */
  ended: string[];
  /** How many sessions were started (`initialize`). */
  started: () => number;
  /** Forgets every session, as a server whose sessions expire does: their ids then get 404. */
  expireSessions: () => void;
}

/**
 * Serves a session per `initialize` on 127.0.0.1, answering POSTs with JSON or
 * SSE, and a request in a session it does not know (any more) with 404, as
 * MCP's session management says.
 */
async function startUpstream(json: boolean): Promise<Upstream> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const ended: string[] = [];
  let started = 0;
  const app = express();
  app.use(express.json());
  app.all("/mcp", async (req, res) => {
    const id = req.get("Mcp-Session-Id") ?? "";
    const known = sessions.get(id);
    if (known && req.method === "DELETE") ended.push(id);
    if (known) return known.handleRequest(req, res, req.body);
    if (id) {
      res
        .status(404)
        .json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
      return;
    }
    started++;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: json,
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    await upstreamSession(json).connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return {
    ...(await listen(app, 0)),
    ended,
    started: () => started,
    expireSessions: () => sessions.clear(),
  };
}

/** The payments the host's wallet was asked for, and why those withdrawn were. */
interface Payments {
  asked: number;
  withdrawn: unknown[];
  /** Whether an elicitation waits for the person (until withdrawn) rather than being cancelled at once. */
  elicitationsWait?: boolean;
}

/**
 * A wallet that pays nothing, noting the sightings and elicitations the proxy
 * hands it; a payment it is asked for waits for the person until withdrawn.
 */
function hostWallet(
  reports: McpServerSighting[],
  elicited: ElicitParams[],
  payments: Payments,
): ProxyWallet {
  return {
    pay: (_challenge, signal) => untilWithdrawn(payments, signal),
    receipt: async () => undefined,
    elicit: async (params, signal) => {
      elicited.push(params);
      if (payments.elicitationsWait) return untilWithdrawn(payments, signal);
      return { action: "cancel" };
    },
    report: async (sighting) => {
      reports.push(sighting);
    },
  };
}

/** Waits for the person, who never decides: rejects once `signal` withdraws the request. */
function untilWithdrawn(payments: Payments, signal: AbortSignal | undefined): Promise<never> {
  payments.asked++;
  return new Promise((_resolve, reject) => {
    signal?.addEventListener("abort", () => {
      payments.withdrawn.push(signal.reason);
      reject(new Error("withdrawn"));
    });
  });
}

/** A desktop host's client, talking to the proxy in memory. */
async function hostThroughProxy(
  upstream: string,
  capabilities: ConstructorParameters<typeof Client>[1],
  reports: McpServerSighting[],
  elicited: ElicitParams[] = [],
  payments: Payments = { asked: 0, withdrawn: [] },
) {
  const { server: proxy, ended } = createForwardingServer({
    upstream: new URL(upstream),
    wallet: hostWallet(reports, elicited, payments),
    version: "t",
  });
  const [hostSide, proxySide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(proxySide);
  const client = new Client({ name: "host", version: "1.0.0" }, capabilities);
  await client.connect(hostSide);
  return { client, close: () => client.close(), ended };
}

describe.each([
  ["JSON", true],
  ["SSE", false],
])("forwarding to a server answering with %s", (_label, json) => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  const closers: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    upstream = await startUpstream(json);
  });
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
    await upstream.close();
  });

  it("shows the host the upstream's capabilities, identity and instructions, and reports its price hints", async () => {
    const reports: McpServerSighting[] = [];
    const host = await hostThroughProxy(`${upstream.url}/mcp`, {}, reports);
    closers.push(host.close);
    expect(host.client.getServerCapabilities()).toMatchObject({
      tools: {},
      logging: {},
      experimental: { "stipendex/payments": { version: "0.1" } },
    });
    expect(host.client.getServerVersion()).toEqual({ name: "upstream-test", version: "9.9.9" });
    expect(host.client.getInstructions()).toBe("Search politely");
    const { tools } = await host.client.listTools();
    expect(tools).toEqual(TOOLS);
    await expect.poll(() => reports.length).toBe(2);
    expect(reports).toEqual([
      { server: `${upstream.url}/mcp`, stipendexPayments: { version: "0.1" } },
      {
        server: `${upstream.url}/mcp`,
        tools: [{ name: "search", pricing: { model: "per_call", estimate: "0.005 USD" } }],
      },
    ]);
  });

  it("passes calls, their _meta, notifications and errors (code, message, data) through unchanged", async () => {
    const host = await hostThroughProxy(`${upstream.url}/mcp`, {}, []);
    closers.push(host.close);
    const logged: unknown[] = [];
    host.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logged.push(notification.params);
    });
    const result = await host.client.callTool({
      name: "search",
      arguments: {},
      _meta: { "example/trace": "t1" },
    });
    expect(result).toEqual({
      content: [{ type: "text", text: "results" }],
      _meta: { seen: { "example/trace": "t1" } },
    });
    await expect.poll(() => logged).toEqual([{ level: "info", data: "searching" }]);
    const failure = await host.client.callTool({ name: "fails", arguments: {} }).catch((e) => e);
    expect(failure).toBeInstanceOf(McpError);
    // The SDK server sent "MCP error -32050: Quota gone" (its McpError's text); the host's client prefixes it once more.
    expect(failure).toMatchObject({
      code: -32050,
      message: "MCP error -32050: MCP error -32050: Quota gone",
      data: { retryAfter: 60 },
    });
  });

  it("withdraws a paid call from the wallet when the host cancels it while the wallet asks", async () => {
    const payments: Payments = { asked: 0, withdrawn: [] };
    const host = await hostThroughProxy(`${upstream.url}/mcp`, {}, [], [], payments);
    closers.push(host.close);
    const cancel = new AbortController();
    const call = host.client.callTool({ name: "priced", arguments: {} }, undefined, {
      signal: cancel.signal,
    });
    // The wallet is asked once the upstream has priced the call; then the host gives it up.
    await expect.poll(() => payments.asked).toBe(1);
    expect(payments.withdrawn).toEqual([]);
    cancel.abort("the person stopped the agent");
    await expect(call).rejects.toThrow();
    await expect.poll(() => payments.withdrawn).toEqual(["the person stopped the agent"]);
  });

  it("withdraws an elicitation from the wallet when the server gives it up while the wallet asks", async () => {
    const payments: Payments = { asked: 0, withdrawn: [], elicitationsWait: true };
    const host = await hostThroughProxy(`${upstream.url}/mcp`, {}, [], [], payments);
    closers.push(host.close);
    const answered = await host.client.callTool({ name: "buy-in-time", arguments: {} });
    expect(JSON.stringify(answered.content)).toMatch(/gaveUp.*timed out/i);
    expect(payments.asked).toBe(1);
    await expect.poll(() => payments.withdrawn).toHaveLength(1);
  });

  it("hands the wallet a Quote elicited during a call with that call, when it came on the call's answer", async () => {
    const elicited: ElicitParams[] = [];
    const host = await hostThroughProxy(`${upstream.url}/mcp`, {}, [], elicited);
    closers.push(host.close);
    const answered = await host.client.callTool({ name: "buy", arguments: { q: "mcp" } });
    expect(answered.content).toEqual([
      { type: "text", text: JSON.stringify({ action: "cancel" }) },
    ]);
    expect(elicited).toHaveLength(1);
    expect(elicited[0]?.server).toBe(`${upstream.url}/mcp`);
    // A server answering in JSON sends it on the session's stream: no call to bind it to.
    expect(elicited[0]?.call).toEqual(json ? undefined : { tool: "buy", arguments: { q: "mcp" } });
  });

  it("starts a new upstream session when the server has forgotten the host's, and sends the call again there", async () => {
    const host = await hostThroughProxy(`${upstream.url}/mcp`, {}, []);
    closers.push(host.close);
    await host.client.listTools();
    upstream.expireSessions();
    const [listed, called] = await Promise.all([
      host.client.listTools(),
      host.client.callTool({ name: "search", arguments: {} }),
    ]);
    expect(listed.tools.map((tool) => tool.name)).toEqual(["search"]);
    expect(called.content).toEqual([{ type: "text", text: "results" }]);
    // Both calls met the 404 at once: one new session for both.
    expect(upstream.started()).toBe(2);
  });

  it("ends the upstream session with a DELETE once the host goes, and only then settles `ended`", async () => {
    const host = await hostThroughProxy(`${upstream.url}/mcp`, {}, []);
    await host.client.listTools();
    expect(upstream.ended).toEqual([]);
    await host.close();
    await host.ended;
    expect(upstream.ended).toHaveLength(1);
  });

  it("over stdio, ends the upstream session once the host closes the proxy's input", async () => {
    const { server, ended } = createForwardingServer({
      upstream: new URL(`${upstream.url}/mcp`),
      wallet: hostWallet([], [], { asked: 0, withdrawn: [] }),
      version: "t",
    });
    const input = new PassThrough();
    const output = new PassThrough();
    await serveStdio(server, input, output);
    const answered = new Promise<string>((resolve) => output.once("data", (c) => resolve(`${c}`)));
    input.write(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: "host", version: "1" },
        },
      })}\n`,
    );
    expect(JSON.parse(await answered)).toMatchObject({ id: 1, result: { serverInfo: {} } });
    input.end();
    await ended;
    expect(upstream.ended).toHaveLength(1);
  });

  it("hands the host the upstream's elicitations when it takes them, and declines them for a host that does not", async () => {
    const asking = await hostThroughProxy(
      `${upstream.url}/mcp`,
      { capabilities: { elicitation: {} } },
      [],
    );
    closers.push(asking.close);
    asking.client.setRequestHandler(ElicitRequestSchema, async (request) => ({
      action: "accept",
      content: { city: `Paris (${request.params.message})` },
    }));
    const answered = await asking.client.callTool({ name: "ask", arguments: {} });
    expect(answered.content).toEqual([
      {
        type: "text",
        text: JSON.stringify({ action: "accept", content: { city: "Paris (Which city?)" } }),
      },
    ]);

    const plain = await hostThroughProxy(`${upstream.url}/mcp`, {}, []);
    closers.push(plain.close);
    const declined = await plain.client.callTool({ name: "ask", arguments: {} });
    expect(declined.content).toEqual([
      { type: "text", text: JSON.stringify({ action: "decline" }) },
    ]);
  });
});

describe("forwarding to a server that is not there", () => {
  it("fails the host's initialize saying which server could not be reached", async () => {
    const gone = await startUpstream(true);
    await gone.close();
    const failure = await hostThroughProxy(`${gone.url}/mcp`, {}, []).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).message).toMatch(
      new RegExp(
        `^MCP error -32603: stipendex-proxy could not reach the MCP server at ${gone.url}/mcp: `,
      ),
    );
  });
});
