import { describe, expect, it } from "vitest";
import type { PaymentAnswer, PaymentChallenge, ReceiptParams } from "../messages";
import { installFetchHook, type McpSource } from "./fetch";
import { createMcpHook } from "./mcp-hook";
import type { WalletLink } from "./wallet-link";

type Win = Window & typeof globalThis;
type Handler = (request: Request) => Response | Promise<Response>;

/** The MCP half, loaded on first use (asynchronously, as over the bridge). */
function mcpAtHand(): McpSource {
  const hook = createMcpHook();
  let loaded = false;
  return {
    loaded: () => (loaded ? hook : undefined),
    load: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      loaded = true;
      return hook;
    },
  };
}

/**
 * A window whose native fetch behaves as a browser's: it reads `input`/`init` at
 * call time (a Request is built at once), resolves relative URLs against the
 * document's base URL, and records every request it sends.
 */
function setup(
  server: Handler,
  decide: (c: PaymentChallenge) => PaymentAnswer | undefined,
  options: {
    baseURI?: string;
    native?: (request: Request, init?: RequestInit) => Promise<Response>;
  } = {},
) {
  const href = "https://agent.example/app";
  const baseURI = options.baseURI ?? href;
  const seen: Request[] = [];
  const win = {
    location: { href },
    document: { baseURI },
    fetch(this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      const request =
        input instanceof Request
          ? new Request(input, init)
          : new Request(new URL(String(input), baseURI), init);
      // (A custom native gets the Request itself: a clone would tee its body.)
      if (options.native) return options.native(request, init);
      seen.push(request.clone());
      return Promise.resolve().then(() => server(request));
    },
  } as unknown as Win;
  const challenges: PaymentChallenge[] = [];
  const receipts: ReceiptParams[] = [];
  const wallet: WalletLink = {
    pay: async (challenge) => {
      challenges.push(challenge);
      const answer = decide(challenge);
      if (!answer) throw Object.assign(new Error("User rejected"), { code: 4001 });
      return answer;
    },
    receipt: (params) => receipts.push(params),
    elicit: async () => ({ action: "decline" }),
    reportMcpServer: () => undefined,
  };
  installFetchHook(win, wallet, mcpAtHand());
  return { win, seen, challenges, receipts };
}

const quoteBody = JSON.stringify({ quote: { stipendex: "quote/0.1", jws: "a.b.c" } });
const pay: PaymentAnswer = {
  paymentId: "p1",
  header: { name: "Stipendex-Payment", value: "proof" },
};
/** Prices every unpaid request; answers a paid one with what it received. */
const pricing: Handler = async (request) =>
  request.headers.get("stipendex-payment") === "proof"
    ? new Response(`paid:${await request.text()}`)
    : new Response(quoteBody, { status: 402, headers: { "content-type": "application/json" } });

describe("the paid retry is the request the page sent", () => {
  it("retries each paid request with its own body when the page reuses one init object", async () => {
    const { win } = setup(pricing, () => pay);
    const init: RequestInit = { method: "POST", body: "item-a" };
    const a = win.fetch("/api/items", init);
    // fetch has read init: reusing it for the next request changes nothing for the first one.
    init.body = "item-b";
    const b = win.fetch("/api/items", init);
    expect(await (await a).text()).toBe("paid:item-a");
    expect(await (await b).text()).toBe("paid:item-b");
  });

  it("retries with the bytes the page sent, not its buffer as changed after fetch was called", async () => {
    const { win } = setup(pricing, () => pay);
    const bytes = new TextEncoder().encode("first");
    const response = win.fetch("/api/upload", { method: "POST", body: bytes });
    // fetch copied the bytes (Fetch: "extract a body" copies a BufferSource): the page may reuse its buffer.
    bytes.set(new TextEncoder().encode("XXXXX"));
    expect(await (await response).text()).toBe("paid:first");
  });

  it("keeps the page's referrer and referrerPolicy on the paid retry", async () => {
    const { win, seen } = setup(pricing, () => pay);
    const response = await win.fetch("/api/private", {
      referrer: "https://agent.example/app/thread/42",
      referrerPolicy: "no-referrer",
    });
    expect(await response.text()).toBe("paid:");
    expect(seen).toHaveLength(2);
    expect(seen[0]?.referrerPolicy).toBe("no-referrer");
    // new Request(request, { headers, redirect }) resets both (Fetch, Request constructor step "If init is not empty").
    expect(seen[1]?.referrerPolicy).toBe("no-referrer");
    expect(seen[1]?.referrer).toBe("https://agent.example/app/thread/42");
  });

  it("sends a paid MCP retry to the URL the page's request went to on a page with <base href>", async () => {
    const call = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "web_search", arguments: { q: "x" } },
    };
    const server: Handler = async (request) => {
      if (new URL(request.url).origin !== "https://tools.example") {
        return new Response("not here", { status: 404 });
      }
      const body = (await request.json()) as { id: unknown; params: { _meta?: object } };
      return body.params._meta && "stipendex/payment" in body.params._meta
        ? Response.json({ jsonrpc: "2.0", id: body.id, result: { content: [] } })
        : Response.json({
            jsonrpc: "2.0",
            id: body.id,
            error: { code: -32402, message: "Payment required", data: { quote: {} } },
          });
    };
    const { win, seen } = setup(
      server,
      () => ({ paymentId: "m1", meta: { key: "stipendex/payment", value: { jws: "p" } } }),
      { baseURI: "https://tools.example/v1/" },
    );
    // The page's own request resolves "mcp" against its <base>: https://tools.example/v1/mcp.
    const response = await win.fetch("mcp", { method: "POST", body: JSON.stringify(call) });
    expect(seen[0]?.url).toBe("https://tools.example/v1/mcp");
    expect(seen[1]?.url).toBe("https://tools.example/v1/mcp");
    expect(((await response.json()) as { result?: unknown }).result).toEqual({ content: [] });
  });
});

describe("a page that never pays", () => {
  it("sends a JSON-RPC request with the init the page gave, even when it reuses the object right after", async () => {
    const { win, seen } = setup(
      async (request) =>
        Response.json({
          jsonrpc: "2.0",
          id: ((await request.json()) as { id: number }).id,
          result: "0x1",
        }),
      () => undefined,
    );
    // A web3 page: JSON-RPC over fetch, one options object reused for each call.
    const init: RequestInit = { method: "POST", headers: { "content-type": "application/json" } };
    init.body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
    const first = win.fetch("https://rpc.example/", init);
    init.body = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "eth_blockNumber", params: [] });
    const second = win.fetch("https://rpc.example/", init);
    await Promise.all([first, second]);
    const ids = await Promise.all(seen.map(async (r) => ((await r.json()) as { id: number }).id));
    expect(ids.sort()).toEqual([1, 2]);
  });
});
