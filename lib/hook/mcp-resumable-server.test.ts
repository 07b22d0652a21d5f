/**
 * Tool calls priced by servers built as MCP's own SDK examples build one:
 * resumable (an event store), so each SSE answer starts with a priming event
 * (an id and empty data) before the call's answer. Some also poll (MCP
 * 2025-11-25): the tool closes its call's stream after the priming event (the
 * SDK's `closeSSEStream`), and the page's client resumes it by GET with
 * `Last-Event-ID`, where the answer (a price, or the paid result) then comes.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mcpAtHand } from "../../tests/unit-support/hook/mcp-half";
import type { PaymentAnswer, PaymentChallenge, ReceiptParams } from "../messages";
import { installFetchHook } from "./fetch";
import type { WalletLink } from "./wallet-link";

const ENDPOINT = "https://mcp.example/mcp";
const QUOTE = { stipendex: "quote/0.1", jws: "a.b.c" };
const PROOF = { stipendex: "proof/0.1", jws: "p.q.r" };
const MCP_PAYMENT: PaymentAnswer = {
  paymentId: "m1",
  meta: { key: "stipendex/payment", value: PROOF },
};
/** Seed 004's price: an HTTP 402 with an x402 `accepts[]` body. */
const ACCEPTS = { x402Version: 1, accepts: [{ scheme: "exact", network: "base-sepolia" }] };
const HTTP_PAYMENT: PaymentAnswer = {
  paymentId: "h1",
  header: { name: "X-PAYMENT", value: "signed" },
};
const SETTLED = "eyJzdWNjZXNzIjp0cnVlfQ";

/**
 * One session of an SDK server with an event store whose tool is priced with
 * -32402 until the call carries a payment (`priced: "mcp"`), or behind seed
 * 004's HTTP 402 (`priced: "http"`); with `polling`, the tool closes its
 * call's stream after the priming event, every time, and answers on the
 * stream the client resumes. Notes the payments it took and the Last-Event-IDs of its GETs.
 */
async function resumableServer({ priced, polling }: { priced: "mcp" | "http"; polling: boolean }) {
  const paid: unknown[] = [];
  const server = new Server({ name: "priced", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (polling) {
      extra.closeSSEStream?.();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (priced === "mcp") {
      const payment = request.params._meta?.["stipendex/payment"];
      if (!payment) throw new McpError(-32402, "Payment required", { quote: QUOTE });
      paid.push(payment);
    }
    return { content: [{ type: "text", text: "found" }] };
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    eventStore: new InMemoryEventStore(),
  });
  await server.connect(transport);
  const gets: string[] = [];
  const handle = async (request: Request): Promise<Response> => {
    if (request.method === "GET") gets.push(request.headers.get("last-event-id") ?? "");
    if (priced === "http" && request.method === "POST") {
      const message = (await request.clone().json()) as { method?: string };
      if (message.method === "tools/call") {
        const payment = request.headers.get("x-payment");
        if (!payment) return Response.json(ACCEPTS, { status: 402 });
        paid.push(payment);
        const response = await transport.handleRequest(request);
        const headers = new Headers(response.headers);
        headers.set("x-payment-response", SETTLED);
        return new Response(response.body, { status: response.status, headers });
      }
    }
    return transport.handleRequest(request);
  };
  /** The Last-Event-IDs the page's client resumed streams from. */
  const resumedFrom = () => gets.filter((id) => id !== "");
  return { handle, paid, resumedFrom };
}

function page(handle: (request: Request) => Promise<Response>, answer: PaymentAnswer) {
  const win = {
    location: { href: "https://agent.example/app" },
    document: { baseURI: "https://agent.example/app" },
    fetch(input: RequestInfo | URL, init?: RequestInit) {
      return Promise.resolve().then(() => handle(new Request(input, init)));
    },
  } as unknown as Window & typeof globalThis;
  const challenges: PaymentChallenge[] = [];
  const receipts: ReceiptParams[] = [];
  const wallet: WalletLink = {
    pay: async (challenge) => {
      challenges.push(challenge);
      return answer;
    },
    receipt: (params) => receipts.push(params),
    elicit: async () => ({ action: "decline" }),
    reportMcpServer: () => undefined,
  };
  installFetchHook(win, wallet, mcpAtHand());
  return { win, challenges, receipts };
}

/** The page's SDK client calls the tool; `maxRetries` 0: it never resumes a stream, and gives up at 300 ms. */
async function callTool(win: Window & typeof globalThis, maxRetries = 5) {
  const client = new Client({ name: "agent", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(ENDPOINT), {
      fetch: (input, init) => win.fetch(input, init),
      reconnectionOptions: {
        initialReconnectionDelay: 10,
        maxReconnectionDelay: 50,
        reconnectionDelayGrowFactor: 1.5,
        maxRetries,
      },
    }),
  );
  try {
    return await client.callTool({ name: "search", arguments: { q: "cats" } }, undefined, {
      timeout: maxRetries ? 10_000 : 300,
    });
  } finally {
    await client.close();
  }
}

async function receiptsOf(p: { receipts: ReceiptParams[] }): Promise<ReceiptParams[]> {
  for (let i = 0; i < 100 && p.receipts.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  // Time for a second report, were one to follow.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return p.receipts;
}

describe("a resumable SDK server (priming events before each answer)", () => {
  it("has its -32402 paid once and the page's client handed the paid result", async () => {
    const server = await resumableServer({ priced: "mcp", polling: false });
    const streams: Promise<string>[] = [];
    const p = page(async (request) => {
      const response = await server.handle(request);
      const sse = response.headers.get("content-type")?.startsWith("text/event-stream");
      if (request.method === "POST" && sse) {
        streams.push(response.clone().text());
      }
      return response;
    }, MCP_PAYMENT);
    const result = await callTool(p.win);
    expect(result.content).toEqual([{ type: "text", text: "found" }]);
    // The premise: each answer came on SSE after a priming event.
    const sent = await Promise.all(streams);
    expect(sent.filter((text) => /^id: \S+\ndata: \n\n/.test(text)).length).toBeGreaterThanOrEqual(
      2,
    );
    expect(p.challenges).toHaveLength(1);
    expect(p.challenges[0]).toMatchObject({ transport: "mcp", tool: "search" });
    expect(server.paid).toEqual([PROOF]);
    // Reported once the page has its answer.
    expect(await receiptsOf(p)).toMatchObject([{ paymentId: "m1", status: 200 }]);
  });
});

describe("a polling server: the call's stream closed after priming, answered on the resumed GET", () => {
  it("has a -32402 on the resumed stream paid once, and the paid result handed to the page", async () => {
    const server = await resumableServer({ priced: "mcp", polling: true });
    const p = page(server.handle, MCP_PAYMENT);
    const result = await callTool(p.win);
    expect(result.content).toEqual([{ type: "text", text: "found" }]);
    // The premise: the price and the paid result both came on streams resumed by GET.
    expect(server.resumedFrom().length).toBeGreaterThanOrEqual(2);
    expect(p.challenges).toHaveLength(1);
    expect(p.challenges[0]).toMatchObject({ transport: "mcp", tool: "search" });
    expect(server.paid).toEqual([PROOF]);
    // The paid retry's stream closed unanswered too: the wallet, which sent it, resumed it.
    const receipts = await receiptsOf(p);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ paymentId: "m1", status: 200, receipt: null });
    expect(receipts[0]?.unanswered).toBeUndefined();
  });

  it("has seed 004's paid result, resumed by GET, filed as the answer it is: no 'stream ended'", async () => {
    const server = await resumableServer({ priced: "http", polling: true });
    const p = page(server.handle, HTTP_PAYMENT);
    const result = await callTool(p.win);
    expect(result.content).toEqual([{ type: "text", text: "found" }]);
    expect(server.resumedFrom().length).toBeGreaterThanOrEqual(1);
    expect(server.paid).toEqual(["signed"]);
    const receipts = await receiptsOf(p);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ paymentId: "h1", status: 200, receipt: SETTLED });
    expect(receipts[0]?.unanswered).toBeUndefined();
  });

  describe("a page whose client never resumes the stream", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("has seed 004's receipt filed as 'stream ended' once the wallet stops waiting for it", async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const server = await resumableServer({ priced: "http", polling: true });
      const p = page(server.handle, HTTP_PAYMENT);
      await expect(callTool(p.win, 0)).rejects.toThrow(/timed out/i);
      expect(server.paid).toEqual(["signed"]);
      expect(server.resumedFrom()).toEqual([]);
      expect(p.receipts).toEqual([]);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(p.receipts).toMatchObject([
        { paymentId: "h1", status: 200, receipt: SETTLED, unanswered: "stream-ended" },
      ]);
    });
  });
});
