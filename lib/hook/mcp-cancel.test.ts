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

/**
 * A page running the official MCP client against a server pricing its tool
 * with -32402, through the hook; the server notes the page's cancellations
 * and the paid retries it gets.
 */
async function sdkPage(wallet: WalletLink) {
  const cancelled: unknown[] = [];
  const paidRetries: unknown[] = [];
  const hook = createMcpHook();
  const mcp: McpSource = { loaded: () => hook, load: async () => hook };
  const win = {
    location: { href: "https://agent.example/app" },
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
        return Response.json(
          { jsonrpc: "2.0", id: message.id, result },
          { headers: { "mcp-session-id": "s1" } },
        );
      }
      if (message.method === "notifications/cancelled") cancelled.push(message.params?.requestId);
      if (message.id === undefined) return new Response(null, { status: 202 });
      if (message.params?._meta) {
        paidRetries.push(message.id);
        return Response.json({ jsonrpc: "2.0", id: message.id, result: { content: [] } });
      }
      return Response.json({ jsonrpc: "2.0", id: message.id, error: price });
    },
  } as unknown as Win;
  installFetchHook(win, wallet, mcp);
  const client = new Client({ name: "agent", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint), {
      fetch: (input, init) => win.fetch(input, init),
    }),
  );
  return { client, cancelled, paidRetries };
}

/** A wallet whose person has not decided yet: `decide` answers for them. */
function waitingWallet() {
  const receipts: ReceiptParams[] = [];
  let signalOf: AbortSignal | undefined;
  let decide: ((answer: PaymentAnswer) => void) | undefined;
  let asked: () => void = () => undefined;
  const askedOnce = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const wallet: WalletLink = {
    pay: (_challenge, signal) => {
      signalOf = signal;
      asked();
      return new Promise((resolve) => {
        decide = resolve;
      });
    },
    receipt: (params) => receipts.push(params),
    elicit: async () => ({ action: "decline" }),
    reportMcpServer: () => undefined,
  };
  return {
    wallet,
    receipts,
    askedOnce,
    signal: () => signalOf,
    decide: (answer: PaymentAnswer) => decide?.(answer),
  };
}

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
});
