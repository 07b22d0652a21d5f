import { describe, expect, it } from "vitest";
import { breakingOff } from "../../tests/unit-support/hook/bodies";
import { mcpAtHand } from "../../tests/unit-support/hook/mcp-half";
import type {
  ElicitParams,
  McpServerSighting,
  PaymentAnswer,
  PaymentChallenge,
  ReceiptParams,
} from "../messages";
import { canonicalize, sha256Base64url } from "../protocol/canonical-json";
import { installFetchHook, type McpSource } from "./fetch";
import { formatSseMessage } from "./sse";
import { MAX_CHALLENGE_BYTES, type WalletLink } from "./wallet-link";

type Win = Window & typeof globalThis;

/** Waits (a few ms at a time, a second at most) until `done`: receipts are reported after the page's answer. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

type Handler = (request: Request) => Response | Promise<Response>;

/** A window whose native fetch is a real in-process server, and a wallet that records calls. */
function setup(
  server: Handler,
  decide: (
    c: PaymentChallenge,
    signal?: AbortSignal,
  ) => PaymentAnswer | undefined | Promise<PaymentAnswer | undefined>,
  mcp: McpSource = mcpAtHand(),
  /** How the wallet answers an elicitation (declines at once unless given). */
  answerElicitation: WalletLink["elicit"] = async () => ({ action: "decline" }),
) {
  const seen: Request[] = [];
  const win = {
    location: { href: "https://agent.example/app" },
    document: { baseURI: "https://agent.example/app" },
    fetch(this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(
        new URL(String(input instanceof Request ? input.url : input), "https://agent.example/app"),
        input instanceof Request ? input : init,
      );
      const copy =
        input instanceof Request && init === undefined ? input : new Request(request, init);
      seen.push(copy.clone());
      return Promise.resolve().then(() => server(copy));
    },
  } as unknown as Win;
  const challenges: PaymentChallenge[] = [];
  const receipts: ReceiptParams[] = [];
  const reports: McpServerSighting[] = [];
  const elicited: ElicitParams[] = [];
  const wallet: WalletLink = {
    pay: async (challenge, signal) => {
      challenges.push(challenge);
      const answer = await decide(challenge, signal);
      if (!answer) throw Object.assign(new Error("User rejected"), { code: 4001 });
      return answer;
    },
    receipt: (params) => receipts.push(params),
    elicit: async (params, signal) => {
      elicited.push(params);
      return answerElicitation(params, signal);
    },
    reportMcpServer: (report) => reports.push(report),
  };
  installFetchHook(win, wallet, mcp);
  return { win, seen, challenges, receipts, reports, elicited };
}

const quoteBody = JSON.stringify({ quote: { stipendex: "quote/0.1", jws: "a.b.c" } });
const pay: PaymentAnswer = {
  paymentId: "p1",
  header: { name: "Stipendex-Payment", value: "proof" },
};

describe("installFetchHook: HTTP 402", () => {
  const server: Handler = async (request) =>
    request.headers.get("stipendex-payment") === "proof"
      ? paidAnswer(`paid:${await request.text()}`)
      : new Response(quoteBody, { status: 402, headers: { "content-type": "application/json" } });
  const paidAnswer = (body: string, length = true) =>
    new Response(body, {
      headers: {
        "Stipendex-Receipt": "rcpt",
        ...(length ? { "content-length": String(new TextEncoder().encode(body).length) } : {}),
      },
    });

  it("passes non-402 answers through as the very same Response", async () => {
    const original = new Response("ok");
    const { win, challenges } = setup(
      () => original,
      () => pay,
    );
    expect(await win.fetch("/free")).toBe(original);
    expect(challenges).toEqual([]);
  });

  it("pays a 402, retries once with the same method and body plus the header, and reports the receipt", async () => {
    const { win, seen, challenges, receipts } = setup(server, () => pay);
    const response = await win.fetch("/api/search?q=1", { method: "POST", body: "hello" });
    expect(await response.text()).toBe("paid:hello");
    expect(challenges).toEqual([
      {
        transport: "http",
        url: "https://agent.example/api/search?q=1",
        method: "POST",
        body: quoteBody,
        paymentRequiredHeader: null,
      },
    ]);
    expect(seen).toHaveLength(2);
    expect(seen[1]?.method).toBe("POST");
    // With the hash of the body the page got, for a Stipendex Receipt's resultHash.
    await until(() => receipts.length > 0);
    expect(receipts).toEqual([
      {
        paymentId: "p1",
        status: 200,
        receipt: "rcpt",
        resultHash: await sha256Base64url("paid:hello"),
      },
    ]);
  });

  // A chunked or compressed answer declares no length: its Receipt's resultHash is checked all the same.
  it("reports a Receipt for a body of unknown length with the hash of the body served", async () => {
    const { win, receipts } = setup(
      (request) =>
        request.headers.get("stipendex-payment") === "proof"
          ? paidAnswer("streamed", false)
          : new Response(quoteBody, { status: 402 }),
      () => pay,
    );
    const response = await win.fetch("/api/search");
    expect(await response.text()).toBe("streamed");
    await until(() => receipts.length > 0);
    expect(receipts).toEqual([
      {
        paymentId: "p1",
        status: 200,
        receipt: "rcpt",
        resultHash: await sha256Base64url("streamed"),
      },
    ]);
  });

  it("reports an x402 settle response at once, with no body hash", async () => {
    const x402: Handler = async (request) =>
      request.headers.get("x-payment") === "signed"
        ? new Response("paid", { headers: { "X-PAYMENT-RESPONSE": "settled" } })
        : new Response(JSON.stringify({ accepts: [] }), { status: 402 });
    const { win, receipts } = setup(x402, () => ({
      paymentId: "p2",
      header: { name: "X-PAYMENT", value: "signed" },
    }));
    const response = await win.fetch("/api/search");
    expect(receipts).toEqual([{ paymentId: "p2", status: 200, receipt: "settled" }]);
    expect(await response.text()).toBe("paid");
  });

  it("retries a stream body and a Request body without consuming the page's copy", async () => {
    const { win } = setup(server, () => pay);
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode("streamed"));
        c.close();
      },
    });
    const viaStream = await win.fetch("/s", {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(await viaStream.text()).toBe("paid:streamed");
    const request = new Request("https://agent.example/r", { method: "PUT", body: "req" });
    expect(await (await win.fetch(request)).text()).toBe("paid:req");
  });

  it("hands the wallet a v2 price's 402 body beside its header: the receiver's Quote may be there", async () => {
    const header = "eyJ4NDAyVmVyc2lvbiI6MiwiYWNjZXB0cyI6W119";
    const { win, challenges } = setup(
      () =>
        new Response(quoteBody, {
          status: 402,
          headers: { "content-type": "application/json", "payment-required": header },
        }),
      () => undefined,
    );
    await win.fetch("https://api.example/search?q=1");
    expect(challenges).toEqual([
      {
        transport: "http",
        url: "https://api.example/search?q=1",
        method: "GET",
        body: quoteBody,
        paymentRequiredHeader: header,
      },
    ]);
  });

  it("reads a v2 price from its header alone when the 402's body is over the cap", async () => {
    const { win, challenges } = setup(
      () =>
        new Response(
          new ReadableStream(
            {
              pull(controller) {
                controller.enqueue(new TextEncoder().encode("x".repeat(MAX_CHALLENGE_BYTES + 1)));
                controller.close();
              },
            },
            { highWaterMark: 0 },
          ),
          { status: 402, headers: { "payment-required": "eyJ4NDAyVmVyc2lvbiI6Mn0" } },
        ),
      () => undefined,
    );
    const declined = await win.fetch("/api/search");
    expect(declined.status).toBe(402);
    expect(await declined.text()).toHaveLength(MAX_CHALLENGE_BYTES + 1);
    expect(challenges).toEqual([
      {
        transport: "http",
        url: "https://agent.example/api/search",
        method: "GET",
        body: "",
        paymentRequiredHeader: "eyJ4NDAyVmVyc2lvbiI6Mn0",
      },
    ]);
  });

  it("reads a 402 body that arrives in pieces, a character split between two of them", async () => {
    const bytes = new TextEncoder().encode(
      JSON.stringify({ quote: { stipendex: "quote/0.1", jws: "a.b.c", note: "prix: 5 €" } }),
    );
    const split = bytes.length - 6; // inside the three bytes of "€"
    const { win, challenges } = setup(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(bytes.slice(0, split));
              controller.enqueue(bytes.slice(split));
              controller.close();
            },
          }),
          { status: 402 },
        ),
      () => undefined,
    );
    await win.fetch("/api/search");
    expect(challenges).toMatchObject([
      { transport: "http", body: new TextDecoder().decode(bytes) },
    ]);
  });

  it("does not hand the wallet a streamed 402 body past its cap: the page still gets all of it", async () => {
    const piece = new TextEncoder().encode(`{"quote":"${"x".repeat(1024)}`);
    const pieces = Math.ceil(MAX_CHALLENGE_BYTES / piece.length) + 1;
    const { win, challenges } = setup(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              for (let i = 0; i < pieces; i++) controller.enqueue(piece);
              controller.close();
            },
          }),
          { status: 402 },
        ),
      () => pay,
    );
    const response = await win.fetch("/api/search");
    expect(response.status).toBe(402);
    expect(challenges).toEqual([]);
    expect((await response.text()).length).toBe(piece.length * pieces);
  });

  /** A 402 whose body comes in two pieces, then ends at once or, when `held`, on `end()`. */
  function inTwoPieces(headers: Record<string, string>, held = false) {
    const bytes = new TextEncoder().encode(quoteBody);
    let end = () => {};
    const respond = () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(bytes.slice(0, 10));
            controller.enqueue(bytes.slice(10));
            end = () => controller.close();
            if (!held) end();
          },
        }),
        { status: 402, headers },
      );
    return { respond, end: () => end() };
  }

  it("hands the wallet a 402 body once its declared length is in, without waiting for the stream's end", async () => {
    const length = String(new TextEncoder().encode(quoteBody).length);
    const body = inTwoPieces({ "content-length": length }, true);
    const { win, challenges } = setup(body.respond, () => undefined);
    const fetched = win.fetch("/api/search");
    // Ended only once the wallet was asked: a wait for the end would never ask it.
    await until(() => challenges.length === 1);
    expect(challenges).toMatchObject([{ body: quoteBody }]);
    body.end();
    expect(await (await fetched).text()).toBe(quoteBody);
  });

  it("reads an encoded 402 body to its end: its declared length is not the decoded one", async () => {
    const body = inTwoPieces({ "content-encoding": "gzip", "content-length": "10" });
    const { win, challenges } = setup(body.respond, () => undefined);
    await win.fetch("/api/search");
    expect(challenges).toMatchObject([{ body: quoteBody }]);
  });

  it("rejects as aborted, never retrying, when the page aborts while the wallet asks", async () => {
    const abort = new AbortController();
    const { win, seen, challenges } = setup(
      server,
      // The wallet, like the background once the request is withdrawn, declines on the abort.
      (_challenge, signal) =>
        new Promise((resolve) => signal?.addEventListener("abort", () => resolve(undefined))),
    );
    const fetched = win.fetch("/api/search", { signal: abort.signal });
    await until(() => challenges.length === 1);
    abort.abort();
    await expect(fetched).rejects.toMatchObject({ name: "AbortError" });
    expect(seen).toHaveLength(1);
  });

  it("never sends a payment signed after the page gave the request up, and says it was not sent", async () => {
    const abort = new AbortController();
    const { win, seen, receipts } = setup(server, () => {
      // Given up as the wallet signs: too late to withdraw.
      abort.abort(new DOMException("timed out", "TimeoutError"));
      return pay;
    });
    await expect(win.fetch("/api/search", { signal: abort.signal })).rejects.toMatchObject({
      name: "TimeoutError",
    });
    expect(seen).toHaveLength(1);
    expect(receipts).toEqual([
      { paymentId: "p1", status: 0, receipt: null, unanswered: "not-sent" },
    ]);
  });

  it("gives the page its 402 and says the payment was not sent when the half that sends it cannot load", async () => {
    const { win, seen, receipts } = setup(server, () => pay, mcpAtHand(true));
    const answer = await win.fetch("/api/search");
    expect(answer.status).toBe(402);
    expect(seen).toHaveLength(1);
    expect(receipts).toEqual([
      { paymentId: "p1", status: 0, receipt: null, unanswered: "not-sent" },
    ]);
  });

  it("does not ask the wallet about a request the page aborted while its 402 was read", async () => {
    const abort = new AbortController();
    const { win, challenges } = setup(
      (request) => {
        abort.abort();
        return server(request);
      },
      () => pay,
    );
    await expect(win.fetch("/api/search", { signal: abort.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(challenges).toEqual([]);
  });

  it("gives the page the original, unread 402 when the wallet declines", async () => {
    const { win, seen } = setup(server, () => undefined);
    const response = await win.fetch("/api/search");
    expect(response.status).toBe(402);
    expect(await response.text()).toBe(quoteBody);
    expect(seen).toHaveLength(1);
  });

  // envelope.md section 7: "records the refusal and hands the page the original answer".
  it("gives the page the original 402 when a Stipendex receiver refuses the paid retry, its reason filed first", async () => {
    let calls = 0;
    const { win, receipts } = setup(
      () => new Response(calls++ === 0 ? quoteBody : '{"error":"expired"}', { status: 402 }),
      () => pay,
    );
    const abort = new AbortController();
    const response = await win.fetch("/x", { signal: abort.signal });
    // A page done with its answer may give the request up at once (an MCP client closing).
    abort.abort();
    expect(response.status).toBe(402);
    expect(receipts).toEqual([
      {
        paymentId: "p1",
        status: 402,
        receipt: null,
        error: { code: 402, message: '{"error":"expired"}' },
      },
    ]);
  });

  // Seed 004: the reason comes back in the 402 "so your client can fix it"; x402's clients return it.
  it("gives the page an x402 server's 402 refusing the paid retry, as it came, its reason filed first", async () => {
    const refusal = '{"error":"FiatTokenV2_2: invalid signature","accepts":[]}';
    const x402: Handler = async (request) =>
      new Response(request.headers.has("x-payment") ? refusal : '{"accepts":[]}', { status: 402 });
    const { win, receipts } = setup(x402, () => ({
      paymentId: "p2",
      header: { name: "X-PAYMENT", value: "signed" },
    }));
    const abort = new AbortController();
    const response = await win.fetch("/x", { signal: abort.signal });
    abort.abort();
    expect(receipts).toEqual([
      { paymentId: "p2", status: 402, receipt: null, error: { code: 402, message: refusal } },
    ]);
    expect(response.status).toBe(402);
    expect(await response.text()).toBe(refusal);
  });

  it("reports an x402 v2 refusal with the PAYMENT-REQUIRED header that says why", async () => {
    let calls = 0;
    const { win, receipts } = setup(
      () =>
        calls++ === 0
          ? new Response(quoteBody, { status: 402 })
          : new Response("{}", {
              status: 402,
              headers: { "payment-required": "eyJlcnJvciI6Im5vIn0=" },
            }),
      () => pay,
    );
    await win.fetch("/x");
    await until(() => receipts.length > 0);
    expect(receipts[0]?.error).toEqual({
      code: 402,
      message: "{}",
      data: { paymentRequired: "eyJlcnJvciI6Im5vIn0=" },
    });
  });

  /** A server that prices every unpaid request and answers the paid retry with `paid()`. */
  const pricing = (paid: () => Response): Handler => {
    let calls = 0;
    return () => (calls++ === 0 ? new Response(quoteBody, { status: 402 }) : paid());
  };

  // The payment is signed: whatever becomes of its retry, the wallet hears of it.
  describe("a paid retry that does not come back whole", () => {
    const failure = new TypeError("network error");

    it("reports no HTTP answer at all (status 0) and fails the page's fetch as a plain one would", async () => {
      const { win, receipts } = setup(
        pricing(() => {
          throw failure;
        }),
        () => pay,
      );
      await expect(win.fetch("/x")).rejects.toBe(failure);
      expect(receipts).toEqual([
        { paymentId: "p1", status: 0, receipt: null, unanswered: "no-response" },
      ]);
    });

    it("reports a paid retry the page gave up once it was sent as given up by its caller", async () => {
      const abort = new AbortController();
      const { win, receipts } = setup(
        pricing(() => {
          abort.abort(new DOMException("timed out", "TimeoutError"));
          throw abort.signal.reason;
        }),
        () => pay,
      );
      await expect(win.fetch("/x", { signal: abort.signal })).rejects.toMatchObject({
        name: "TimeoutError",
      });
      expect(receipts).toEqual([
        { paymentId: "p1", status: 0, receipt: null, unanswered: "given-up" },
      ]);
    });

    // Red-team review: history said the server gave no answer, though it had the payment and
    // answered it with a redirect.
    it("reports a redirect as such: the retry never follows it, and the page's fetch fails", async () => {
      const opaqueRedirect = () =>
        Object.defineProperties(new Response(null, { status: 200 }), {
          type: { value: "opaqueredirect" },
          status: { value: 0 },
        });
      const { win, receipts } = setup(pricing(opaqueRedirect), () => pay);
      await expect(win.fetch("/x")).rejects.toThrow("Paid requests never follow redirects");
      expect(receipts).toEqual([
        { paymentId: "p1", status: 0, receipt: null, unanswered: "redirected" },
      ]);
    });

    it("reports a Receipt whose body breaks off before it is hashed, without the hash", async () => {
      const { win, receipts } = setup(
        pricing(
          () =>
            new Response(breakingOff("paid", failure), {
              headers: { "Stipendex-Receipt": "rcpt", "content-length": "100" },
            }),
        ),
        () => pay,
      );
      const response = await win.fetch("/x");
      await expect(response.text()).rejects.toBe(failure);
      await until(() => receipts.length > 0);
      expect(receipts).toEqual([{ paymentId: "p1", status: 200, receipt: "rcpt" }]);
    });

    it("reports a refusal too long to read as a refusal all the same", async () => {
      const { win, receipts } = setup(
        pricing(() => new Response("x".repeat(MAX_CHALLENGE_BYTES + 1), { status: 402 })),
        () => pay,
      );
      expect((await win.fetch("/x")).status).toBe(402);
      await until(() => receipts.length > 0);
      expect(receipts).toEqual([
        { paymentId: "p1", status: 402, receipt: null, error: { code: 402, message: "HTTP 402" } },
      ]);
    });

    it("reports a refusal whose body breaks off as a refusal, and gives the page the original 402", async () => {
      const { win, receipts } = setup(
        pricing(() => new Response(breakingOff('{"error":', failure), { status: 402 })),
        () => pay,
      );
      const response = await win.fetch("/x");
      expect(await response.text()).toBe(quoteBody);
      expect(receipts).toEqual([
        { paymentId: "p1", status: 402, receipt: null, error: { code: 402, message: "HTTP 402" } },
      ]);
    });
  });

  describe("a 402 met after a redirect", () => {
    /** Answers with a price as from `url`, where the browser's fetch was redirected to. */
    const redirectedTo =
      (url: string): Handler =>
      async (request) => {
        const answer = await server(request);
        if (answer.status !== 402) return answer;
        return Object.defineProperties(answer, {
          url: { value: url },
          redirected: { value: true },
        });
      };
    const secret = {
      method: "POST",
      body: "secret=hunter2",
      headers: { authorization: "Bearer good-api-token" },
    };

    it("is left unpaid, the wallet not asked, when fetch may have rebuilt the request: not a GET, or another origin", async () => {
      const toOther = setup(redirectedTo("https://other.example/landing"), () => pay);
      const response = await toOther.win.fetch("https://api.good.example/submit", secret);
      expect(response.status).toBe(402);
      expect(await response.text()).toBe(quoteBody);
      const cross = await toOther.win.fetch("https://api.good.example/page", {
        headers: secret.headers,
      });
      expect(cross.status).toBe(402);
      // A POST sent back to its own URL (a 303 there) came back as a GET without its body.
      const toItself = setup(redirectedTo("https://api.good.example/submit"), () => pay);
      expect((await toItself.win.fetch("https://api.good.example/submit", secret)).status).toBe(
        402,
      );
      for (const { seen, challenges } of [toOther, toItself]) {
        expect(challenges).toEqual([]);
        expect(seen.every((request) => !request.headers.has("stipendex-payment"))).toBe(true);
      }
      expect(toOther.seen.map((request) => request.url)).toEqual([
        "https://api.good.example/submit",
        "https://api.good.example/page",
      ]);
    });

    it("is paid at the URL that answered when it was a GET that stayed on its origin", async () => {
      const { win, seen, challenges } = setup(
        redirectedTo("https://api.good.example/landing"),
        () => pay,
      );
      const response = await win.fetch("https://api.good.example/start", {
        headers: secret.headers,
      });
      expect(await response.text()).toBe("paid:");
      expect(challenges).toMatchObject([
        { url: "https://api.good.example/landing", method: "GET" },
      ]);
      expect(seen[1]?.url).toBe("https://api.good.example/landing");
      expect(seen[1]?.headers.get("authorization")).toBe("Bearer good-api-token");
    });

    it("is paid at the URL that answered for a Request object too: a GET has no body to move", async () => {
      // Firefox's Request has no `body` to read: the GET is moved all the same.
      const firefoxLike = (request: Request) =>
        Object.defineProperty(request, "body", { value: undefined });
      for (const shape of [(request: Request) => request, firefoxLike]) {
        const { win, seen, challenges } = setup(
          redirectedTo("https://api.good.example/landing"),
          () => pay,
        );
        const request = new Request("https://api.good.example/start", {
          headers: { ...secret.headers, accept: "application/json" },
          cache: "no-store",
        });
        const response = await win.fetch(shape(request), { headers: { "x-page": "init wins" } });
        expect(await response.text()).toBe("paid:");
        expect(challenges).toMatchObject([
          { url: "https://api.good.example/landing", method: "GET" },
        ]);
        const retry = seen[1];
        expect(retry?.url).toBe("https://api.good.example/landing");
        expect(retry?.headers.get("stipendex-payment")).not.toBeNull();
        expect(retry?.headers.get("x-page")).toBe("init wins");
        expect(retry?.cache).toBe("no-store");
        expect(retry?.redirect).toBe("manual");
      }
    });
  });

  it("leaves 402s without a price alone", async () => {
    const { win, challenges } = setup(
      () => new Response("no", { status: 402 }),
      () => pay,
    );
    expect((await win.fetch("/x")).status).toBe(402);
    expect(challenges).toEqual([]);
  });

  it("keeps fetch's own rejections", async () => {
    const failure = new TypeError("Failed to fetch");
    const { win } = setup(
      () => {
        throw failure;
      },
      () => pay,
    );
    await expect(win.fetch("/x")).rejects.toBe(failure);
  });
});

describe("installFetchHook: MCP", () => {
  it("loads its MCP half only for a JSON-RPC request, once; a plain page never carries it", async () => {
    const mcp = mcpAtHand();
    const { win } = setup(
      () => Response.json({ jsonrpc: "2.0", id: 1, result: {} }),
      () => undefined,
      mcp,
    );
    await win.fetch("https://agent.example/plain");
    await win.fetch("https://agent.example/events", { headers: { accept: "text/event-stream" } });
    expect(mcp.loads).toBe(0);
    const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    await win.fetch("https://mcp.example/mcp", { method: "POST", body: list });
    await win.fetch("https://mcp.example/mcp", { method: "POST", body: list });
    expect(mcp.loads).toBe(1);
  });

  it("sends an MCP request unchanged and unpaid when its MCP half cannot be loaded", async () => {
    const { win, seen, challenges } = setup(mcpServer(false), () => mcpPay, mcpAtHand(true));
    const response = await win.fetch("https://mcp.example/mcp", init);
    expect(((await response.json()) as { error?: { code: number } }).error?.code).toBe(-32402);
    expect(seen).toHaveLength(1);
    expect(challenges).toHaveLength(0);
  });

  const call = {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "web_search", arguments: { q: "x" } },
  };
  const refusal = {
    jsonrpc: "2.0",
    id: 7,
    error: { code: -32402, message: "Payment required", data: { quote: {} } },
  };
  const paid = {
    jsonrpc: "2.0",
    id: 7,
    result: { content: [], _meta: { "stipendex/receipt": { jws: "r" } } },
  };
  const mcpPay: PaymentAnswer = {
    paymentId: "m1",
    meta: { key: "stipendex/payment", value: { jws: "p" } },
  };
  const x402Pay: PaymentAnswer = {
    paymentId: "x1",
    meta: { key: "x402/payment", value: { p: 1 } },
  };

  /** A server answering an unpaid tools/call with the x402 price `priced`, sent with `status`. */
  function x402Server(priced: object, status = 200): Handler {
    return async (request) => {
      const body = (await request.json()) as {
        id: unknown;
        params: { _meta?: Record<string, unknown> };
      };
      return body.params._meta?.["x402/payment"]
        ? Response.json({ ...paid, id: body.id })
        : Response.json(priced, { status });
    };
  }
  const init = { method: "POST", headers: { "mcp-session-id": "s1" }, body: JSON.stringify(call) };

  /** A server refusing an unpaid tools/call with -32402, in SSE or JSON (with `refusalStatus`). */
  function mcpServer(sse: boolean, refusalStatus = 200): Handler {
    return async (request) => {
      const body = (await request.json()) as {
        id: unknown;
        params: { _meta?: Record<string, unknown> };
      };
      // Answered under the request's id, as a server answers: the paid retry's is its own.
      const answer = {
        ...(body.params._meta?.["stipendex/payment"] ? paid : refusal),
        id: body.id,
      };
      if ("error" in answer && refusalStatus !== 200) {
        return Response.json(answer, { status: refusalStatus });
      }
      return sse
        ? new Response(
            `: ping\n\n${formatSseMessage({ jsonrpc: "2.0", method: "notifications/progress" })}${formatSseMessage(answer)}`,
            {
              headers: { "content-type": "text/event-stream" },
            },
          )
        : Response.json(answer);
    };
  }

  it("passes on a tools/list's first 200 tools, each as its name and pricing, unread", async () => {
    const tools = [
      { name: "x".repeat(300) },
      {
        name: "priced",
        _meta: { "stipendex/pricing": { model: "per_call", estimate: "y".repeat(100) } },
      },
      ...Array.from({ length: 250 }, (_, i) => ({ name: `tool-${i}` })),
    ];
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
    const { win, reports } = setup(
      () => Response.json({ jsonrpc: "2.0", id: 1, result: { tools } }),
      () => undefined,
    );
    await win.fetch("https://mcp.example/mcp", { method: "POST", body: JSON.stringify(list) });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const [report] = reports;
    expect(report?.tools).toHaveLength(200);
    expect(report?.tools?.slice(0, 3)).toEqual([
      { name: "x".repeat(300), pricing: undefined },
      { name: "priced", pricing: { model: "per_call", estimate: "y".repeat(100) } },
      { name: "tool-0", pricing: undefined },
    ]);
  });

  it("pays a -32402 answered in JSON and gives the page the paid JSON", async () => {
    const { win, seen, challenges, receipts } = setup(mcpServer(false), () => mcpPay);
    const response = await win.fetch("https://mcp.example/mcp", init);
    expect(await response.json()).toEqual(paid);
    expect(challenges[0]).toMatchObject({
      transport: "mcp",
      server: "https://mcp.example/mcp",
      tool: "web_search",
    });
    expect(seen[1]?.headers.get("mcp-session-id")).toBe("s1");
    // With the hash of the result's content the page got, for the Receipt's resultHash.
    await until(() => receipts.length > 0);
    expect(receipts).toEqual([
      {
        paymentId: "m1",
        status: 200,
        receipt: { jws: "r" },
        resultHash: await sha256Base64url(canonicalize([])),
      },
    ]);
  });

  it("pays a -32402 sent with HTTP status 402 as the MCP refusal it is; an HTTP price there stays one", async () => {
    const { win, seen, challenges } = setup(mcpServer(false, 402), () => mcpPay);
    const response = await win.fetch("https://mcp.example/mcp", init);
    expect(await response.json()).toEqual(paid);
    expect(challenges).toMatchObject([
      { transport: "mcp", tool: "web_search", error: { code: -32402 } },
    ]);
    expect(seen).toHaveLength(2);
    const http = setup(
      () =>
        new Response(quoteBody, { status: 402, headers: { "content-type": "application/json" } }),
      () => undefined,
    );
    await http.win.fetch("https://mcp.example/mcp", init);
    expect(http.challenges).toMatchObject([{ transport: "http", method: "POST" }]);
  });

  it.each([
    [
      "an isError result",
      { isError: true, structuredContent: { x402Version: 2, accepts: [] }, content: [] },
      undefined,
    ],
    ["the draft's error 402", undefined, { code: 402, data: { x402Version: 1, accepts: [] } }],
  ])(
    "pays an x402 price sent with HTTP status 402 as %s in _meta, not as an HTTP price",
    async (_form, result, error) => {
      const priced = { jsonrpc: "2.0", id: 7, ...(result ? { result } : { error }) };
      const { win, challenges, seen } = setup(x402Server(priced, 402), () => x402Pay);
      const response = await win.fetch("https://mcp.example/mcp", init);
      expect(await response.json()).toEqual(paid);
      expect(challenges).toMatchObject([{ transport: "mcp", tool: "web_search" }]);
      expect(seen).toHaveLength(2);
    },
  );

  it("hands the page a tool call's JSON answer once its declared length is in, and a long one unread", async () => {
    const result = { jsonrpc: "2.0", id: 7, result: { content: [] } };
    const bytes = new TextEncoder().encode(JSON.stringify(result));
    const long = {
      jsonrpc: "2.0",
      id: 7,
      result: { content: [{ type: "text", text: "x".repeat(MAX_CHALLENGE_BYTES) }] },
    };
    let held = true;
    const { win, challenges } = setup(
      () =>
        held
          ? new Response(
              // Never ended: a wait for the end would never hand it on.
              new ReadableStream({ start: (controller) => controller.enqueue(bytes) }),
              {
                headers: {
                  "content-type": "application/json",
                  "content-length": String(bytes.length),
                },
              },
            )
          : Response.json(long),
      () => mcpPay,
    );
    const answered = await win.fetch("https://mcp.example/mcp", init);
    expect(answered.status).toBe(200);
    held = false;
    const longAnswer = await win.fetch("https://mcp.example/mcp", init);
    expect(await longAnswer.json()).toEqual(long);
    expect(challenges).toEqual([]);
  });

  it("pays a -32402 inside an SSE answer and passes the other events through in order", async () => {
    const { win } = setup(mcpServer(true), () => mcpPay);
    const text = await (await win.fetch("https://mcp.example/mcp", init)).text();
    expect(text).toBe(
      `: ping\n\n${formatSseMessage({ jsonrpc: "2.0", method: "notifications/progress" })}: ping\n\n${formatSseMessage({ jsonrpc: "2.0", method: "notifications/progress" })}${formatSseMessage(paid)}`,
    );
  });

  it("pays an x402 result of resultType payment_required like an isError one", async () => {
    const priced = {
      jsonrpc: "2.0",
      id: 7,
      result: { resultType: "payment_required", paymentRequired: { x402Version: 2, accepts: [] } },
    };
    const { win, challenges, seen } = setup(x402Server(priced), () => x402Pay);
    const response = await win.fetch("https://mcp.example/mcp", init);
    expect(await response.json()).toEqual(paid);
    expect(challenges[0]).toMatchObject({ transport: "mcp", result: priced.result });
    expect(seen).toHaveLength(2);
  });

  it("hands a payment elicitation on a tools/call stream to the wallet with the call in flight", async () => {
    const elicitation = {
      jsonrpc: "2.0",
      id: "e1",
      method: "elicitation/create",
      params: { message: "Pay?", _meta: { "stipendex/quote": { jws: "q" } } },
    };
    const { win, elicited } = setup(
      async (request) =>
        ((await request.json()) as { method?: string }).method === "tools/call"
          ? new Response(`${formatSseMessage(elicitation)}${formatSseMessage(paid)}`, {
              headers: { "content-type": "text/event-stream" },
            })
          : new Response(null, { status: 202 }),
      () => undefined,
    );
    await (await win.fetch("https://mcp.example/mcp", init)).text();
    expect(elicited[0]).toMatchObject({
      server: "https://mcp.example/mcp",
      call: { tool: "web_search", arguments: { q: "x" } },
    });
  });

  describe("a payment elicitation given up while the wallet asks", () => {
    const elicitation = {
      jsonrpc: "2.0",
      id: "e1",
      method: "elicitation/create",
      params: { message: "Pay?", _meta: { "stipendex/quote": { jws: "q" } } },
    };
    /** A tools/call answered by an SSE stream the test writes to; other POSTs (answers) get 202. */
    function streamingServer() {
      let write: (message: unknown) => void = () => undefined;
      let end: () => void = () => undefined;
      const server: Handler = async (request) => {
        if (((await request.json()) as { method?: string }).method !== "tools/call") {
          return new Response(null, { status: 202 });
        }
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            write = (message) => controller.enqueue(encoder.encode(formatSseMessage(message)));
            end = () => controller.close();
          },
        });
        write(elicitation);
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      };
      return { server, write: (message: unknown) => write(message), end: () => end() };
    }
    /** A wallet that waits for the person until the elicitation is withdrawn. */
    const withdrawn: unknown[] = [];
    const untilWithdrawn: WalletLink["elicit"] = (_params, signal) =>
      new Promise((resolve) =>
        signal?.addEventListener("abort", () => {
          withdrawn.push(signal.reason);
          resolve({ action: "decline" });
        }),
      );

    it("withdraws it when the server cancels it, reads on meanwhile, and never answers it", async () => {
      withdrawn.length = 0;
      const upstream = streamingServer();
      const { win, seen, elicited } = setup(
        upstream.server,
        () => undefined,
        mcpAtHand(),
        untilWithdrawn,
      );
      const read = (await win.fetch("https://mcp.example/mcp", init)).text();
      await until(() => elicited.length === 1);
      upstream.write({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: "e1", reason: "timed out" },
      });
      await until(() => withdrawn.length === 1);
      expect(withdrawn).toEqual(["cancelled by the server"]);
      upstream.write(paid);
      upstream.end();
      const text = await read;
      expect(text).toContain('"result"');
      expect(text).not.toContain("elicitation/create");
      // Only the call went out: no answer to the elicitation the server gave up.
      expect(seen).toHaveLength(1);
    });

    it("withdraws it when the page aborts its call", async () => {
      withdrawn.length = 0;
      const upstream = streamingServer();
      const abort = new AbortController();
      const { win, elicited } = setup(
        upstream.server,
        () => undefined,
        mcpAtHand(),
        untilWithdrawn,
      );
      const response = await win.fetch("https://mcp.example/mcp", {
        ...init,
        signal: abort.signal,
      });
      const read = response.text();
      await until(() => elicited.length === 1);
      abort.abort();
      await until(() => withdrawn.length === 1);
      expect(withdrawn).toHaveLength(1);
      expect((withdrawn[0] as Error).name).toBe("AbortError");
      // (A browser's own fetch errors the body on abort; this test's server ends it.)
      upstream.end();
      await read;
    });
  });

  it("gives the page the original -32402 when the wallet declines", async () => {
    const { win } = setup(mcpServer(true), () => undefined);
    const text = await (await win.fetch("https://mcp.example/mcp", init)).text();
    expect(text).toContain('"code":-32402');
  });

  it("rejects as aborted, never retrying, when the page aborts a paid tool call while the wallet asks", async () => {
    const abort = new AbortController();
    const { win, seen, challenges } = setup(
      mcpServer(true),
      (_challenge, signal) =>
        new Promise((resolve) => signal?.addEventListener("abort", () => resolve(undefined))),
    );
    // Answered as an SSE stream: the payment happens while the page reads it, and so does the abort.
    const read = win
      .fetch("https://mcp.example/mcp", { ...init, signal: abort.signal })
      .then((response) => response.text());
    await until(() => challenges.length === 1);
    abort.abort();
    await expect(read).rejects.toMatchObject({ name: "AbortError" });
    expect(seen).toHaveLength(1);
  });

  describe("elicitation the page's client did not declare", () => {
    const endpoint = "https://mcp.example/mcp";
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "p" } },
    };
    const elicitation = (id: string, params: Record<string, unknown>) => ({
      jsonrpc: "2.0",
      id,
      method: "elicitation/create",
      params,
    });
    const payment = elicitation("e1", {
      message: "Pay?",
      _meta: { "stipendex/quote": { jws: "q" } },
      requestedSchema: { type: "object", properties: { confirmation: { type: "string" } } },
    });
    const nameForm = elicitation("e2", { message: "Your name?", requestedSchema: {} });
    const urlMode = elicitation("e3", { mode: "url", url: "https://x.example", message: "Go" });
    const sse = (...messages: unknown[]) =>
      new Response(messages.map((m) => formatSseMessage(m)).join(""), {
        headers: { "content-type": "text/event-stream" },
      });

    /** A server whose calls (and standalone GET stream) carry `events`; answers are recorded. */
    function sessionServer(events: unknown[]) {
      const answers: { sessionId: string | null; body: unknown }[] = [];
      const handler: Handler = async (request) => {
        if (request.method === "GET") return sse(...events);
        const body = (await request.json()) as { method?: string; params?: unknown };
        if (body.method === "initialize") {
          return Response.json(
            { jsonrpc: "2.0", id: 0, result: { capabilities: {}, received: body.params } },
            { headers: { "mcp-session-id": "s1" } },
          );
        }
        if (body.method === "tools/call") return sse(...events, paid);
        answers.push({ sessionId: request.headers.get("mcp-session-id"), body });
        return new Response(null, { status: 202 });
      };
      return { handler, answers };
    }

    async function openSession(win: Win) {
      const response = await win.fetch(endpoint, {
        method: "POST",
        body: JSON.stringify(initialize),
      });
      return (await response.json()) as { result: { received: { capabilities: unknown } } };
    }

    it("declares form elicitation for the page, answers every form itself, and the page sees none of them", async () => {
      const { handler, answers } = sessionServer([payment, nameForm]);
      const { win, elicited } = setup(handler, () => undefined);
      const opened = await openSession(win);
      expect(opened.result.received.capabilities).toEqual({ elicitation: { form: {} } });
      const text = await (await win.fetch(endpoint, init)).text();
      expect(text).toBe(formatSseMessage(paid));
      expect(elicited).toEqual([
        {
          server: endpoint,
          params: payment.params,
          call: { tool: "web_search", arguments: { q: "x" } },
        },
      ]);
      expect(answers).toEqual([
        { sessionId: "s1", body: { jsonrpc: "2.0", id: "e1", result: { action: "decline" } } },
        { sessionId: "s1", body: { jsonrpc: "2.0", id: "e2", result: { action: "decline" } } },
      ]);
    });

    it("passes URL-mode elicitations through untouched", async () => {
      const { handler, answers } = sessionServer([urlMode]);
      const { win, elicited } = setup(handler, () => undefined);
      await openSession(win);
      const text = await (await win.fetch(endpoint, init)).text();
      expect(text).toBe(`${formatSseMessage(urlMode)}${formatSseMessage(paid)}`);
      expect(elicited).toEqual([]);
      expect(answers).toEqual([]);
    });

    it("answers on the standalone GET stream with a POST in the same session", async () => {
      const { handler, answers } = sessionServer([payment, nameForm, urlMode]);
      const { win, elicited } = setup(handler, () => undefined);
      await openSession(win);
      const stream = await win.fetch(endpoint, {
        method: "GET",
        headers: { accept: "text/event-stream", "mcp-session-id": "s1", "last-event-id": "4" },
      });
      expect(await stream.text()).toBe(formatSseMessage(urlMode));
      expect(elicited).toEqual([{ server: endpoint, params: payment.params }]);
      expect(answers.map((a) => a.sessionId)).toEqual(["s1", "s1"]);
    });

    it("leaves a stream of a session the page did not initialize here alone", async () => {
      const { handler } = sessionServer([payment]);
      const { win, elicited } = setup(handler, () => undefined);
      const stream = await win.fetch(endpoint, { headers: { "mcp-session-id": "elsewhere" } });
      expect(await stream.text()).toBe(formatSseMessage(payment));
      expect(elicited).toEqual([]);
    });

    it("passes a form to a page that declared elicitation itself", async () => {
      const { handler } = sessionServer([nameForm]);
      const { win } = setup(handler, () => undefined);
      const declared = {
        ...initialize,
        params: { ...initialize.params, capabilities: { elicitation: {} } },
      };
      await win.fetch(endpoint, { method: "POST", body: JSON.stringify(declared) });
      const text = await (await win.fetch(endpoint, init)).text();
      expect(text).toBe(`${formatSseMessage(nameForm)}${formatSseMessage(paid)}`);
    });
  });
});

describe("installFetchHook: a paid MCP retry under a request id of its own", () => {
  const endpoint = "https://mcp.example/mcp";
  const call = {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "web_search", arguments: { q: "x" } },
  };
  const init = { method: "POST", headers: { "mcp-session-id": "s1" }, body: JSON.stringify(call) };
  const mcpPay: PaymentAnswer = {
    paymentId: "m1",
    meta: { key: "stipendex/payment", value: { jws: "p" } },
  };
  const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } };
  const result = { content: [{ type: "text", text: "found" }] };
  const event = (id: string, message: unknown) =>
    `id: ${id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`;

  /**
   * A server as MCP has it: an id used twice in the session is refused, the
   * paid call answered under its own id (in JSON, or SSE with event ids, a
   * GET with Last-Event-ID replaying what followed), cancellations noted.
   */
  function strictServer(answer: "json" | "sse" | "sse-broken" | "sse-held") {
    const used = new Set<unknown>();
    const cancelled: unknown[] = [];
    const retries: unknown[] = [];
    let answerEvent = "";
    const handler: Handler = async (request) => {
      if (request.method === "GET") {
        return new Response(request.headers.get("last-event-id") === "ev1" ? answerEvent : "", {
          headers: { "content-type": "text/event-stream" },
        });
      }
      const body = (await request.json()) as {
        id?: unknown;
        method: string;
        params: { requestId?: unknown; _meta?: Record<string, unknown> };
      };
      if (body.method === "notifications/cancelled") {
        cancelled.push(body.params.requestId);
        return new Response(null, { status: 202 });
      }
      if (used.has(body.id)) {
        const said = `Request id ${String(body.id)} was used already in this session`;
        return Response.json({
          jsonrpc: "2.0",
          id: body.id,
          error: { code: -32600, message: said },
        });
      }
      used.add(body.id);
      if (!body.params._meta?.["stipendex/payment"]) {
        const price = { code: -32402, message: "Payment required", data: { quote: {} } };
        return Response.json({ jsonrpc: "2.0", id: body.id, error: price });
      }
      retries.push(body.id);
      const paid = { jsonrpc: "2.0", id: body.id, result };
      answerEvent = event("ev2", paid);
      const sse = (stream: BodyInit) =>
        new Response(stream, { headers: { "content-type": "text/event-stream" } });
      if (answer === "json") return Response.json(paid);
      if (answer === "sse") return sse(event("ev1", progress) + answerEvent);
      const first = event("ev1", progress);
      if (answer === "sse-broken") return sse(breakingOff(first, new TypeError("network error")));
      return sse(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(first)) }));
    };
    return { handler, used, cancelled, retries };
  }

  it("sends the retry under an id of its own and hands the page a JSON answer under the page's", async () => {
    const server = strictServer("json");
    const { win, receipts } = setup(server.handler, () => mcpPay);
    const response = await win.fetch(endpoint, init);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 7, result });
    expect(server.retries).toEqual([expect.stringMatching(/^stipendex-retry-[0-9a-f]{32}$/)]);
    await until(() => receipts.length > 0);
    expect(receipts[0]).toMatchObject({ paymentId: "m1", status: 200, receipt: null });
    expect(receipts[0]?.unanswered).toBeUndefined();
  });

  it("hands the page an SSE answer under the page's id, keeping the event ids for resuming", async () => {
    const server = strictServer("sse");
    const { win } = setup(server.handler, () => mcpPay);
    const text = await (await win.fetch(endpoint, init)).text();
    expect(text).toBe(
      event("ev1", progress) + formatSseMessage({ jsonrpc: "2.0", id: 7, result }, "ev2"),
    );
  });

  it("hands the page the answer of a retry stream it resumes by GET under the page's id, and files its receipt", async () => {
    const server = strictServer("sse-broken");
    const { win, receipts } = setup(server.handler, () => mcpPay);
    const broken = await win.fetch(endpoint, init);
    await expect(broken.text()).rejects.toThrow("network error");
    await until(() => receipts.length > 0);
    expect(receipts[0]).toMatchObject({ paymentId: "m1", unanswered: "stream-ended" });
    const resumed = await win.fetch(endpoint, {
      method: "GET",
      headers: { accept: "text/event-stream", "mcp-session-id": "s1", "last-event-id": "ev1" },
    });
    expect(await resumed.text()).toBe(formatSseMessage({ jsonrpc: "2.0", id: 7, result }, "ev2"));
    // The answer came after all: its receipt (and the hash of what was served) is the wallet's to file.
    await until(() => receipts.length > 1);
    expect(receipts[1]).toEqual({
      paymentId: "m1",
      status: 200,
      receipt: null,
      resultHash: expect.any(String),
    });
  });

  it("passes the page's cancellation of its call on to the retry", async () => {
    const server = strictServer("sse-held");
    const { win } = setup(server.handler, () => mcpPay);
    const held = await win.fetch(endpoint, init);
    const reader = (held.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const cancel = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 7, reason: "the agent gave up" },
    };
    const notify = { ...init, body: JSON.stringify(cancel) };
    await win.fetch(endpoint, notify);
    await win.fetch(endpoint, { ...notify, headers: { "mcp-session-id": "another" } });
    expect(server.cancelled).toEqual([server.retries[0], 7]);
    await reader.cancel();
  });
});
