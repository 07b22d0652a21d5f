/**
 * The SSE stream that carried a tools/call's -32402 breaks off while the
 * wallet asks the person: the page's client (MCP's SDK) has seen its stream
 * fail and reads nothing more of it, so the payment is withdrawn, never sent.
 */
import { describe, expect, it } from "vitest";
import { mcpAtHand } from "../../tests/unit-support/hook/mcp-half";
import { sdkClient } from "../../tests/unit-support/mcp/sdk-client";
import type { PaymentAnswer, ReceiptParams } from "../messages";
import { installFetchHook } from "./fetch";
import type { WalletLink } from "./wallet-link";

const ENDPOINT = "https://mcp.example/mcp";
const result = { content: [{ type: "text", text: "found" }] };
const price = {
  code: -32402,
  message: "Payment required",
  data: { quote: { stipendex: "quote/0.1", jws: "a.b.c" } },
};

/** The price event, then the connection breaks (a proxy's idle timeout, a network change). */
function breakingPriceStream(id: unknown): Response {
  const encoder = new TextEncoder();
  let step = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      step++;
      if (step === 1) {
        controller.enqueue(
          encoder.encode(
            `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, error: price })}\n\n`,
          ),
        );
      } else {
        await new Promise((resolve) => setTimeout(resolve, 10));
        controller.error(new TypeError("network error"));
      }
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

function page() {
  const mcp = mcpAtHand();
  const retries: unknown[] = [];
  const server = async (request: Request): Promise<Response> => {
    if (request.method === "GET") return new Response(null, { status: 405 });
    const body = (await request.json()) as {
      id?: unknown;
      method: string;
      params?: { _meta?: Record<string, unknown> };
    };
    if (body.method !== "tools/call") return new Response(null, { status: 202 });
    if (body.params?._meta?.["stipendex/payment"]) {
      retries.push(body.id);
      return Response.json({ jsonrpc: "2.0", id: body.id, result });
    }
    return breakingPriceStream(body.id);
  };
  const win = {
    location: { href: "https://agent.example/app" },
    document: { baseURI: "https://agent.example/app" },
    fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(
        new URL(String(input instanceof Request ? input.url : input), "https://agent.example/"),
        input instanceof Request ? input : init,
      );
      return Promise.resolve().then(() => server(new Request(request, init)));
    },
  } as unknown as Window & typeof globalThis;
  const receipts: ReceiptParams[] = [];
  const answer: PaymentAnswer = {
    paymentId: "m1",
    meta: { key: "stipendex/payment", value: { stipendex: "proof/0.1", jws: "p" } },
  };
  let withdrawn = false;
  const wallet: WalletLink = {
    // The person takes a moment to approve; the page's stream breaks meanwhile.
    pay: async (_challenge, signal) => {
      signal?.addEventListener("abort", () => {
        withdrawn = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (signal?.aborted) throw signal.reason;
      return answer;
    },
    receipt: (params) => receipts.push(params),
    elicit: async () => ({ action: "decline" }),
    reportMcpServer: () => undefined,
  };
  installFetchHook(win, wallet, mcp);
  return { win, retries, receipts, withdrawn: () => withdrawn };
}

describe("a price whose stream breaks off while the wallet asks", () => {
  it("does not pay a retry whose answer the page can no longer receive", async () => {
    const p = page();
    const { transport, messages, errors } = await sdkClient(ENDPOINT, {
      fetch: (input, init) => p.win.fetch(input, init),
    });
    await transport.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "web_search", arguments: { q: "x" } },
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    // The page's SDK saw its stream fail: it reads nothing more of it.
    expect(String(errors[0])).toContain("SSE stream disconnected");
    const answered = messages.filter((m) => "id" in m && m.id === 2);
    expect(answered).toEqual([]);
    // So the payment was withdrawn, and no paid retry went out.
    expect({ retriesSent: p.retries.length, withdrawn: p.withdrawn() }).toEqual({
      retriesSent: 0,
      withdrawn: true,
    });
  });
});
