/**
 * A tools/call priced by a server built as MCP's own SDK examples build one:
 * resumable (an event store), so each SSE answer starts with a priming event
 * (an id and empty data) before the call's -32402, and the paid retry's too.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { mcpAtHand } from "../../tests/unit-support/hook/mcp-half";
import type { PaymentAnswer, PaymentChallenge, ReceiptParams } from "../messages";
import { installFetchHook } from "./fetch";
import type { WalletLink } from "./wallet-link";

const ENDPOINT = "https://mcp.example/mcp";
const QUOTE = { stipendex: "quote/0.1", jws: "a.b.c" };

/** One session of an SDK server whose tool asks -32402 until the call carries a payment. */
async function resumableServer() {
  const paid: unknown[] = [];
  const server = new Server({ name: "priced", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const payment = request.params._meta?.["stipendex/payment"];
    if (!payment) throw new McpError(-32402, "Payment required", { quote: QUOTE });
    paid.push(payment);
    return { content: [{ type: "text", text: "found" }] };
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    eventStore: new InMemoryEventStore(),
  });
  await server.connect(transport);
  return { handle: (request: Request) => transport.handleRequest(request), paid };
}

function page(handle: (request: Request) => Promise<Response>) {
  const mcp = mcpAtHand();
  const win = {
    location: { href: "https://agent.example/app" },
    document: { baseURI: "https://agent.example/app" },
    fetch(input: RequestInfo | URL, init?: RequestInit) {
      return Promise.resolve().then(() => handle(new Request(input, init)));
    },
  } as unknown as Window & typeof globalThis;
  const challenges: PaymentChallenge[] = [];
  const receipts: ReceiptParams[] = [];
  const answer: PaymentAnswer = {
    paymentId: "m1",
    meta: { key: "stipendex/payment", value: { stipendex: "proof/0.1", jws: "p.q.r" } },
  };
  const wallet: WalletLink = {
    pay: async (challenge) => {
      challenges.push(challenge);
      return answer;
    },
    receipt: (params) => receipts.push(params),
    elicit: async () => ({ action: "decline" }),
    reportMcpServer: () => undefined,
  };
  installFetchHook(win, wallet, mcp);
  return { win, challenges, receipts };
}

describe("a resumable SDK server (priming events before each answer)", () => {
  it("has its -32402 paid once and the page's client handed the paid result", async () => {
    const server = await resumableServer();
    const streams: Promise<string>[] = [];
    const p = page(async (request) => {
      const response = await server.handle(request);
      const sse = response.headers.get("content-type")?.startsWith("text/event-stream");
      if (request.method === "POST" && sse) {
        streams.push(response.clone().text());
      }
      return response;
    });
    const client = new Client({ name: "agent", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(ENDPOINT), {
        fetch: (input, init) => p.win.fetch(input, init),
      }),
    );
    const result = await client.callTool({ name: "search", arguments: { q: "cats" } });
    await client.close();
    expect(result.content).toEqual([{ type: "text", text: "found" }]);
    // The premise: each answer came on SSE after a priming event.
    const sent = await Promise.all(streams);
    expect(sent.filter((text) => /^id: \S+\ndata: \n\n/.test(text)).length).toBeGreaterThanOrEqual(
      2,
    );
    expect(p.challenges).toHaveLength(1);
    expect(p.challenges[0]).toMatchObject({ transport: "mcp", tool: "search" });
    expect(server.paid).toEqual([{ stipendex: "proof/0.1", jws: "p.q.r" }]);
    // Reported once the page has its answer.
    for (let i = 0; i < 100 && p.receipts.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(p.receipts).toMatchObject([{ paymentId: "m1", status: 200 }]);
  });
});
