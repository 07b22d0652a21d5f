import { getEventListeners } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import type { PaymentAnswer, ReceiptParams } from "../messages";
import { installFetchHook, type McpSource } from "./fetch";
import type { JsonRpcRequest } from "./jsonrpc";
import { createMcpHook } from "./mcp-hook";
import type { WalletLink } from "./wallet-link";

type Win = Window & typeof globalThis;
const endpoint = "https://mcp.example/mcp";
const price = { code: -32402, message: "Payment required", data: { quote: "q" } };
const mcpPay: PaymentAnswer = {
  paymentId: "m1",
  meta: { key: "stipendex/payment", value: { jws: "p" } },
};

/** Seed 004's price: an HTTP 402 with an x402 `accepts[]` body. */
const accepts = { x402Version: 1, accepts: [{ scheme: "exact", network: "base-sepolia" }] };

interface ServerOptions {
  /** How the tool is priced: MCP's -32402 (the default) or seed 004's HTTP 402. */
  price?: "json-rpc" | "http-402";
  /** Whether the server keeps sessions (Mcp-Session-Id); the default. */
  sessions?: boolean;
  /** A slow server: the price comes only once the page has cancelled the call. */
  priceAfterCancel?: boolean;
}

/**
 * A page running the official MCP client against a server pricing its tool,
 * through the hook; the server notes the page's cancellations and the paid
 * retries it gets (by tool). `connect()` starts another client in the page.
 */
async function sdkPage(
  wallet: WalletLink,
  { price: priced = "json-rpc", sessions = true, priceAfterCancel = false }: ServerOptions = {},
) {
  const cancelled: unknown[] = [];
  const paidRetries: unknown[] = [];
  let cancelSeen: () => void = () => undefined;
  const cancel = new Promise<void>((resolve) => {
    cancelSeen = resolve;
  });
  const hook = createMcpHook();
  const mcp: McpSource = { loaded: () => hook, load: async () => hook };
  const win = {
    location: { href: "https://agent.example/app" },
    document: { baseURI: "https://agent.example/app" },
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(input instanceof Request ? input : new URL(String(input)), init);
      request.signal.throwIfAborted();
      const message = (await request.json()) as JsonRpcRequest;
      if (message.method === "initialize") {
        const result = {
          protocolVersion: "2025-06-18",
          capabilities: { tools: {} },
          serverInfo: { name: "paid", version: "1" },
        };
        const headers: Record<string, string> = sessions ? { "mcp-session-id": "s1" } : {};
        return Response.json({ jsonrpc: "2.0", id: message.id, result }, { headers });
      }
      if (message.method === "notifications/cancelled") {
        cancelled.push(message.params?.requestId);
        cancelSeen();
      }
      if (message.id === undefined) return new Response(null, { status: 202 });
      if (message.params?._meta || request.headers.has("x-payment")) {
        paidRetries.push(message.params?.name);
        return Response.json({ jsonrpc: "2.0", id: message.id, result: { content: [] } });
      }
      if (priceAfterCancel) await cancel;
      if (priced === "http-402") return Response.json(accepts, { status: 402 });
      return Response.json({ jsonrpc: "2.0", id: message.id, error: price });
    },
  } as unknown as Win;
  installFetchHook(win, wallet, mcp);
  const connect = async () => {
    const client = new Client({ name: "agent", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), {
        fetch: (input, init) => win.fetch(input, init),
      }),
    );
    return client;
  };
  return { client: await connect(), connect, cancelled, paidRetries, win };
}

/** A wallet whose person has not decided yet: `decide` answers for them, the first request by default. */
function waitingWallet() {
  const receipts: ReceiptParams[] = [];
  const asks: { signal?: AbortSignal; decide: (answer: PaymentAnswer) => void }[] = [];
  let asked: () => void = () => undefined;
  const askedOnce = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const wallet: WalletLink = {
    pay: (_challenge, signal) => {
      asked();
      return new Promise((decide) => {
        asks.push({ ...(signal ? { signal } : {}), decide });
      });
    },
    receipt: (params) => receipts.push(params),
    elicit: async () => ({ action: "decline" }),
    reportMcpServer: () => undefined,
  };
  return {
    wallet,
    receipts,
    asks,
    askedOnce,
    signal: (ask = 0) => asks[ask]?.signal,
    decide: (answer: PaymentAnswer, ask = 0) => asks[ask]?.decide(answer),
  };
}

const httpPay: PaymentAnswer = { paymentId: "h1", header: { name: "X-PAYMENT", value: "signed" } };
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

// The SDK gives a call up (its signal, its timeout) by notifications/cancelled: its fetches carry
// the transport's own signal, never the call's.
describe("a paid MCP tool call the page's SDK gives up while the wallet asks", () => {
  it("is withdrawn from the wallet when the call's signal aborts", async () => {
    const person = waitingWallet();
    const { client, cancelled } = await sdkPage(person.wallet);
    const controller = new AbortController();
    const call = client.callTool({ name: "web_search", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    call.catch(() => undefined);
    await person.askedOnce;
    controller.abort("the agent gave up");
    await expect(call).rejects.toBeDefined();
    await expect.poll(() => cancelled).toHaveLength(1);
    expect(person.signal()?.aborted).toBe(true);
    await client.close();
  });

  it("is never sent paid when the person approves after the SDK timed out, and history says so", async () => {
    const person = waitingWallet();
    const { client, paidRetries } = await sdkPage(person.wallet);
    const call = client.callTool({ name: "web_search", arguments: {} }, undefined, {
      timeout: 50,
    });
    call.catch(() => undefined);
    await person.askedOnce;
    await expect(call).rejects.toThrow(/timed out/i);
    person.decide(mcpPay);
    await expect
      .poll(() => person.receipts)
      .toEqual([{ paymentId: "m1", status: 0, receipt: null, unanswered: "not-sent" }]);
    expect(paidRetries).toEqual([]);
    await client.close();
  });

  it("is withdrawn, and never sent paid, when its price is seed 004's HTTP 402", async () => {
    const person = waitingWallet();
    const { client, paidRetries } = await sdkPage(person.wallet, { price: "http-402" });
    const call = client.callTool({ name: "verify_agent", arguments: {} }, undefined, {
      timeout: 50,
    });
    call.catch(() => undefined);
    await person.askedOnce;
    await expect(call).rejects.toThrow(/timed out/i);
    await expect.poll(() => person.signal()?.aborted).toBe(true);
    person.decide(httpPay);
    await settle();
    expect(paidRetries).toEqual([]);
    await client.close();
  });

  it("is given up before its price came: never put to the person", async () => {
    const person = waitingWallet();
    const { client, cancelled } = await sdkPage(person.wallet, { priceAfterCancel: true });
    const controller = new AbortController();
    const call = client.callTool({ name: "web_search", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    call.catch(() => undefined);
    await settle();
    controller.abort("the agent gave up");
    await expect(call).rejects.toBeDefined();
    await expect.poll(() => cancelled).toHaveLength(1);
    await settle();
    expect(person.asks).toEqual([]);
    await client.close();
  });

  // Two clients of a server without sessions number their requests alike (both send id 1).
  it("is withdrawn alone: another client's call of the same id stays", async () => {
    const person = waitingWallet();
    const page = await sdkPage(person.wallet, { sessions: false });
    const other = await page.connect();
    const controller = new AbortController();
    const call = page.client.callTool({ name: "tool_a", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    call.catch(() => undefined);
    await expect.poll(() => person.asks).toHaveLength(1);
    other.callTool({ name: "tool_b", arguments: {} }).catch(() => undefined);
    await expect.poll(() => person.asks).toHaveLength(2);
    controller.abort("agent A gave up");
    await expect(call).rejects.toBeDefined();
    await settle();
    expect([person.signal(0)?.aborted, person.signal(1)?.aborted]).toEqual([true, false]);
    person.decide(mcpPay, 0);
    person.decide(mcpPay, 1);
    await expect.poll(() => page.paidRetries).toEqual(["tool_b"]);
    await page.client.close();
    await other.close();
  });
});

// The MCP SDK's transport passes its one signal to every fetch of the session.
it("leaves no listener behind on the fetches' signal once a call is answered", async () => {
  const hook = createMcpHook();
  const win = {
    location: { href: "https://agent.example/app" },
    document: { baseURI: "https://agent.example/app" },
    // Not a Request: one would follow the signal itself.
    async fetch(_input: RequestInfo | URL, init?: RequestInit) {
      const message = JSON.parse(String(init?.body)) as JsonRpcRequest;
      return Response.json({ jsonrpc: "2.0", id: message.id, result: { content: [] } });
    },
  } as unknown as Win;
  installFetchHook(win, waitingWallet().wallet, { loaded: () => hook, load: async () => hook });
  const transport = new AbortController();
  for (let id = 1; id <= 300; id++) {
    const call = { jsonrpc: "2.0", id, method: "tools/call", params: { name: "free" } };
    const response = await win.fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", "mcp-session-id": "s1" },
      body: JSON.stringify(call),
      signal: transport.signal,
    });
    await response.json();
  }
  expect(getEventListeners(transport.signal, "abort").length).toBeLessThan(10);
});
