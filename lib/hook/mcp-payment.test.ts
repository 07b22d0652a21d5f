import { describe, expect, it } from "vitest";
import { breakingOff } from "../../tests/unit-support/hook/bodies";
import type { ElicitParams, PaymentAnswer, PaymentChallenge, ReceiptParams } from "../messages";
import type { JsonRpcRequest } from "./jsonrpc";
import {
  DESCRIBED_ARGUMENTS_CHARS,
  handleMcpResponse,
  rewriteSse,
  toolCallOf,
  withCall,
} from "./mcp-payment";
import { makeReplayable } from "./replay";
import { formatSseMessage } from "./sse";
import type { WalletLink } from "./wallet-link";

const server = "https://mcp.example/mcp";
/** Seed 004's paid tool, priced as the MCP binding prices a call. */
const request: JsonRpcRequest = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "verify_agent", arguments: { agent: "a" } },
};
const price = { code: -32402, message: "Payment required", data: { quote: "q" } };
const refusal = { jsonrpc: "2.0", id: request.id, error: price };
/** The paid retry's own request id (MCP: the page's was answered already). */
const retryId = "stipendex-retry-1";
/** `message` as the server answers the paid retry: under the retry's id. */
const toRetry = <T extends object>(message: T) => ({ ...message, id: retryId });

type PaymentKey = NonNullable<PaymentAnswer["meta"]>["key"];
const STIPENDEX: PaymentKey = "stipendex/payment";

/**
 * The page's tools/call answered `first`, paid by a wallet that always pays (`paidWith`),
 * its paid retry answered `retry`; what the page got and the wallet was told
 * (told after the page's answer: the tests poll for it).
 */
async function payCall(
  first: Response,
  retry: (request: Request) => Response,
  paidWith: PaymentKey = STIPENDEX,
) {
  const { answered, receipts, asked, elicited } = startCall(first, retry, paidWith);
  return { response: await answered, receipts, asked, elicited };
}

/** As payCall, the page's answer still to come: it may fail. */
function startCall(
  first: Response,
  retry: (request: Request) => Response,
  paidWith: PaymentKey = STIPENDEX,
) {
  const receipts: ReceiptParams[] = [];
  const asked: PaymentChallenge[] = [];
  const elicited: ElicitParams[] = [];
  const wallet: WalletLink = {
    pay: async (challenge) => {
      asked.push(challenge);
      return { paymentId: "m1", meta: { key: paidWith, value: { jws: "p" } } };
    },
    receipt: (params) => receipts.push(params),
    elicit: async (params) => {
      elicited.push(params);
      return { action: "decline" };
    },
    reportMcpServer: () => undefined,
  };
  const body = JSON.stringify(request);
  const answered = handleMcpResponse(
    first,
    {
      server,
      request,
      replayable: makeReplayable(server, { method: "POST", body }, server),
      walletAnswersForms: false,
      retryId: () => retryId,
    },
    wallet,
    async (request) => retry(request as Request),
  );
  return { answered, receipts, asked, elicited };
}

/**
 * The event answering the page's call when its paid retry brought no answer:
 * an error saying the wallet paid, never the price again (its client would pay it twice).
 */
const paidUnanswered = (why: string) =>
  formatSseMessage({
    jsonrpc: "2.0",
    id: request.id,
    error: {
      code: -32603,
      message: `The Stipendex wallet paid for verify_agent, and the MCP server at ${server} gave no answer to the paid call: ${why}`,
    },
  });

const sse = (message: unknown) =>
  new Response(formatSseMessage(message), { headers: { "content-type": "text/event-stream" } });

describe("handleMcpResponse: a paid retry answered neither in JSON nor in SSE", () => {
  // Seed 004: a server that cannot read the payment "gets back a 402 with error: payment_parse".
  const refusals = [
    ["a 402 in plain text", 402, "text/plain", '{"error":"payment_parse"}'],
  ] as const;

  // envelope.md §7: the wallet records the refusal and hands the page the original answer.
  it.each(refusals)(
    "reports %s as a refusal and gives the page the original -32402",
    async (_, status, type, said) => {
      const { response, receipts } = await payCall(
        Response.json(refusal),
        () => new Response(said, { status, headers: { "content-type": type } }),
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(refusal);
      await expect
        .poll(() => receipts)
        .toEqual([
          { paymentId: "m1", status, receipt: null, error: { code: status, message: said } },
        ]);
    },
  );

  it.each(refusals)(
    "reports %s on an SSE answer and keeps the original -32402 event",
    async (_, status, type, said) => {
      const { response, receipts } = await payCall(
        sse(refusal),
        () => new Response(said, { status, headers: { "content-type": type } }),
      );
      expect(await response.text()).toBe(formatSseMessage(refusal));
      await expect
        .poll(() => receipts)
        .toEqual([
          { paymentId: "m1", status, receipt: null, error: { code: status, message: said } },
        ]);
    },
  );

  it("reports a refusal whose body breaks off by its status", async () => {
    const { response, receipts } = await payCall(
      Response.json(refusal),
      () =>
        new Response(breakingOff('{"err', new TypeError("network error")), {
          status: 402,
          statusText: "Payment Required",
        }),
    );
    expect(await response.json()).toEqual(refusal);
    await expect
      .poll(() => receipts[0]?.error)
      .toEqual({ code: 402, message: "HTTP 402 Payment Required" });
  });

  it("says the status when the refusal has nothing in its body", async () => {
    const { receipts } = await payCall(
      Response.json(refusal),
      () => new Response(null, { status: 402, statusText: "Payment Required" }),
    );
    await expect
      .poll(() => receipts[0]?.error)
      .toEqual({ code: 402, message: "HTTP 402 Payment Required" });
  });

  // Another HTTP error is no refusal: the server (or a gateway in front of it) failed after the
  // payment reached it, and may have collected it (the chain tells). The page gets that failure,
  // not the price again, which its client would pay a second time.
  const gateway = () =>
    new Response("<h1>Bad Gateway</h1>", { status: 502, headers: { "content-type": "text/html" } });

  it("reports a gateway's 502 page without a refusal and hands the page what it said", async () => {
    const { response, receipts } = await payCall(Response.json(refusal), gateway);
    expect(response.status).toBe(502);
    expect(await response.text()).toBe("<h1>Bad Gateway</h1>");
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "m1", status: 502, receipt: null, unanswered: "not-an-answer" }]);
  });

  it("reports a gateway's 502 page on an SSE answer without a refusal, answering the call that the wallet paid", async () => {
    const { response, receipts } = await payCall(sse(refusal), gateway);
    expect(await response.text()).toBe(paidUnanswered("HTTP 502"));
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "m1", status: 502, receipt: null, unanswered: "not-an-answer" }]);
  });

  // A 2xx is no refusal: the server took the paid call and may have collected the payment (the
  // chain tells). The page gets what the server said where it can: an SSE stream has no room for it.
  it("hands the page a 2xx answer as the server sent it and reports it without a receipt", async () => {
    const { response, receipts } = await payCall(
      Response.json(refusal),
      () => new Response("done", { headers: { "content-type": "text/plain" } }),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("done");
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "m1", status: 200, receipt: null, unanswered: "not-an-answer" }]);
  });

  // A JSON-RPC error other than -32402 is no refusal either: the page gets it, history says it.
  const crashed = {
    jsonrpc: "2.0",
    id: request.id,
    error: { code: -32603, message: "Tool crashed" },
  };
  const errorAnswer = {
    paymentId: "m1",
    status: 200,
    receipt: null,
    unanswered: "error-answer",
    answerError: { code: -32603, message: "Tool crashed" },
  };

  it("reports a paid call answered with a JSON-RPC error other than -32402, handing the page that error", async () => {
    const { response, receipts } = await payCall(Response.json(refusal), () =>
      Response.json(toRetry(crashed)),
    );
    expect(await response.json()).toEqual(crashed);
    await expect.poll(() => receipts).toEqual([errorAnswer]);
  });

  it("reports a JSON-RPC error other than -32402 on an SSE answer, passing the event on", async () => {
    const { response, receipts } = await payCall(sse(refusal), () => sse(toRetry(crashed)));
    expect(await response.text()).toBe(formatSseMessage(crashed));
    await expect.poll(() => receipts).toEqual([errorAnswer]);
  });

  it("answers the call on an SSE answer, where a 2xx that is not SSE cannot go, saying the wallet paid", async () => {
    const { response, receipts } = await payCall(
      sse(refusal),
      () => new Response("done", { headers: { "content-type": "text/plain" } }),
    );
    expect(await response.text()).toBe(paidUnanswered("HTTP 200"));
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "m1", status: 200, receipt: null, unanswered: "not-an-answer" }]);
  });
});

describe("handleMcpResponse: a paid retry answered in JSON that is no JSON-RPC answer", () => {
  // Seed 004: "gets back a 402 with error: payment_parse", as a JSON body rather than a JSON-RPC error.
  it("reports an HTTP error as the refusal its body says, as any other, and gives the page the original -32402", async () => {
    const { response, receipts } = await payCall(Response.json(refusal), () =>
      Response.json({ error: "payment_parse" }, { status: 402 }),
    );
    expect(await response.json()).toEqual(refusal);
    await expect
      .poll(() => receipts)
      .toEqual([
        {
          paymentId: "m1",
          status: 402,
          receipt: null,
          error: { code: 402, message: '{"error":"payment_parse"}' },
        },
      ]);
  });

  // The same sent with 200 (the server answered, in its own words): no refusal, the server may have
  // taken the paid call, and the chain tells whether it collected.
  const unanswering = [
    ["JSON", '{"error":"payment_parse"}'],
    ["a body that is not JSON", "{oops"],
  ] as const;

  it.each(unanswering)(
    "reports a 2xx with %s without a receipt or a refusal and hands the page what the server sent",
    async (_, said) => {
      const { response, receipts } = await payCall(
        Response.json(refusal),
        () => new Response(said, { headers: { "content-type": "application/json" } }),
      );
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(said);
      await expect
        .poll(() => receipts)
        .toEqual([{ paymentId: "m1", status: 200, receipt: null, unanswered: "not-an-answer" }]);
    },
  );

  it.each(unanswering)(
    "reports a 2xx with %s on an SSE answer without a refusal, answering the call that the wallet paid",
    async (_, said) => {
      const { response, receipts } = await payCall(
        sse(refusal),
        () => new Response(said, { headers: { "content-type": "application/json" } }),
      );
      expect(await response.text()).toBe(
        paidUnanswered("HTTP 200 with JSON that does not answer the call"),
      );
      await expect
        .poll(() => receipts)
        .toEqual([{ paymentId: "m1", status: 200, receipt: null, unanswered: "not-an-answer" }]);
    },
  );
});

describe("handleMcpResponse: a paid retry that got no HTTP answer", () => {
  // As a connection refused or reset: the payment is signed and the server may have taken the call.
  const failure = new TypeError("Failed to fetch");

  const unreached = () => {
    throw failure;
  };

  it("is reported with status 0 and no refusal; the page's fetch fails as a plain fetch would", async () => {
    const { answered, receipts } = startCall(Response.json(refusal), unreached);
    await expect(answered).rejects.toBe(failure);
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "m1", status: 0, receipt: null, unanswered: "no-response" }]);
  });

  it("is reported so on an SSE answer too, whose reading then fails as the retry did", async () => {
    const { response, receipts } = await payCall(sse(refusal), unreached);
    await expect(response.text()).rejects.toBe(failure);
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "m1", status: 0, receipt: null, unanswered: "no-response" }]);
  });
});

describe("handleMcpResponse: a paid retry answered by an SSE stream without the call's answer", () => {
  const progress = formatSseMessage({ jsonrpc: "2.0", method: "notifications/progress" });
  const stream = (body: BodyInit) =>
    new Response(body, { headers: { "content-type": "text/event-stream" } });

  it.each([
    ["answered in JSON", () => Response.json(refusal)],
    ["answered in SSE", () => sse(refusal)],
  ])(
    "reports a stream that ends so without a refusal, the page's call answered that the wallet paid (%s)",
    async (_, first) => {
      const { response, receipts } = await payCall(first(), () => stream(progress));
      expect(await response.text()).toBe(
        progress +
          paidUnanswered("HTTP 200 with an SSE stream that ended without answering the call"),
      );
      await expect
        .poll(() => receipts)
        .toEqual([{ paymentId: "m1", status: 200, receipt: null, unanswered: "stream-ended" }]);
    },
  );

  it("reports one that breaks off so, the page's reading failing as the stream did", async () => {
    const failure = new TypeError("network error");
    const { response, receipts } = await payCall(Response.json(refusal), () =>
      stream(breakingOff(progress, failure)),
    );
    await expect(response.text()).rejects.toBe(failure);
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "m1", status: 200, receipt: null, unanswered: "stream-ended" }]);
  });

  describe("closed by a server that polls, after an event with an id", () => {
    const primed = "id: ev1\nretry: 10\ndata: \n\n";
    /** The retry, then what `resumed` answers each GET with; the GETs are noted. */
    const polling = (resumed: (request: Request) => Response) => {
      const gets: Request[] = [];
      const answer = (request: Request) => {
        if (request.method !== "GET") return stream(primed);
        gets.push(request);
        return resumed(request);
      };
      return { gets, answer };
    };

    it("is resumed by the wallet by GET with its Last-Event-ID, the answer there handed to the page", async () => {
      const paid = { jsonrpc: "2.0", id: retryId, result: { content: [] } };
      const polled = polling(() => stream(`id: ev2\n${formatSseMessage(paid)}`));
      const { response, receipts } = await payCall(Response.json(refusal), polled.answer);
      const text = await response.text();
      expect(text).toBe(`${primed}${formatSseMessage({ ...paid, id: request.id }, "ev2")}`);
      expect(polled.gets).toHaveLength(1);
      const [get] = polled.gets;
      expect(get?.url).toBe(server);
      expect(get?.headers.get("last-event-id")).toBe("ev1");
      expect(get?.headers.get("accept")).toBe("text/event-stream");
      expect(get?.headers.get("content-type")).toBeNull();
      await expect.poll(() => receipts).toHaveLength(1);
      expect(receipts[0]).toMatchObject({ paymentId: "m1", status: 200, receipt: null });
      expect(receipts[0]?.unanswered).toBeUndefined();
    });

    // A server's replayed stream may stay open after the answer (MCP's SDK keeps it): each one
    // held is one of the six connections a browser opens to the server.
    it("lets the resumed stream go once its answer came, though the server keeps it open", async () => {
      const paid = { jsonrpc: "2.0", id: retryId, result: { content: [] } };
      let cancelled = false;
      const polled = polling(() =>
        stream(
          new ReadableStream({
            start: (c) => c.enqueue(new TextEncoder().encode(formatSseMessage(paid))),
            cancel: () => {
              cancelled = true;
            },
          }),
        ),
      );
      const { response } = await payCall(Response.json(refusal), polled.answer);
      expect(await response.text()).toBe(primed + formatSseMessage({ ...paid, id: request.id }));
      expect(cancelled).toBe(true);
    });

    it("is given up after two resumptions that bring nothing: reported so, the page's call answered that the wallet paid", async () => {
      const polled = polling(() => stream(progress));
      const { response, receipts } = await payCall(Response.json(refusal), polled.answer);
      expect(await response.text()).toBe(
        primed +
          progress +
          progress +
          paidUnanswered("HTTP 200 with an SSE stream that ended without answering the call"),
      );
      expect(polled.gets.map((get) => get.headers.get("last-event-id"))).toEqual(["ev1", "ev1"]);
      expect(receipts).toEqual([
        { paymentId: "m1", status: 200, receipt: null, unanswered: "stream-ended" },
      ]);
    });

    it("is not resumed again once its server refuses to (a 4xx: no GET stream)", async () => {
      const polled = polling(() => new Response(null, { status: 405 }));
      const { response, receipts } = await payCall(Response.json(refusal), polled.answer);
      expect(await response.text()).toBe(
        primed +
          paidUnanswered("HTTP 200 with an SSE stream that ended without answering the call"),
      );
      expect(polled.gets).toHaveLength(1);
      expect(receipts).toMatchObject([{ unanswered: "stream-ended" }]);
    });
  });

  it("reports one the page stops reading before the answer", async () => {
    const { response, receipts } = await payCall(Response.json(refusal), () =>
      stream(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(progress)) })),
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "m1", status: 200, receipt: null, unanswered: "stream-ended" }]);
  });

  it("reports an HTTP error's stream as no answer, handing the page what it said", async () => {
    const { response, receipts } = await payCall(
      Response.json(refusal),
      () =>
        new Response(progress, {
          status: 503,
          statusText: "Service Unavailable",
          headers: { "content-type": "text/event-stream" },
        }),
    );
    expect(response.status).toBe(503);
    expect(await response.text()).toBe(progress);
    await expect
      .poll(() => receipts)
      .toEqual([{ paymentId: "m1", status: 503, receipt: null, unanswered: "not-an-answer" }]);
  });

  // README: an elicited Quote must be for the tool and arguments of the call whose stream carried it.
  it("binds a payment elicitation on the retry's stream to the call, as on the first answer's", async () => {
    const elicitation = {
      jsonrpc: "2.0",
      id: "e1",
      method: "elicitation/create",
      params: { message: "Pay?", _meta: { "stipendex/quote": { jws: "q" } } },
    };
    const paid = { jsonrpc: "2.0", id: retryId, result: { content: [] } };
    const { response, elicited } = await payCall(Response.json(refusal), () =>
      stream(`${formatSseMessage(elicitation)}${formatSseMessage(paid)}`),
    );
    await response.text();
    expect(elicited).toEqual([
      {
        server,
        params: elicitation.params,
        call: { tool: "verify_agent", arguments: { agent: "a" } },
      },
    ]);
  });

  it("reports the answer once, not again when the stream then ends", async () => {
    const paid = { jsonrpc: "2.0", id: retryId, result: { content: [] } };
    const { response, receipts } = await payCall(Response.json(refusal), () =>
      stream(`${progress}${formatSseMessage(paid)}${progress}`),
    );
    await response.text();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(receipts).toMatchObject([{ paymentId: "m1", status: 200, receipt: null }]);
    expect(receipts[0]?.resultHash).toBeDefined();
  });
});

describe("handleMcpResponse: an x402 price in a JSON-RPC error of code 402 (an earlier draft of x402's MCP transport)", () => {
  const paymentRequired = {
    x402Version: 2,
    accepts: [{ scheme: "exact", network: "eip155:84532", amount: "1000" }],
  };
  const priced = {
    jsonrpc: "2.0",
    id: request.id,
    error: { code: 402, message: "Payment required", data: paymentRequired },
  };

  it("is handed to the wallet as the isError result the transport now sends, and the paid answer reaches the page", async () => {
    const paid = {
      jsonrpc: "2.0",
      id: request.id,
      result: { content: [{ type: "text", text: "ok" }] },
    };
    const { response, asked } = await payCall(Response.json(priced), () =>
      Response.json(toRetry(paid)),
    );
    expect(asked).toEqual([
      {
        transport: "mcp",
        server,
        tool: "verify_agent",
        arguments: { agent: "a" },
        result: { isError: true, structuredContent: paymentRequired },
      },
    ]);
    expect(await response.json()).toEqual(paid);
  });

  it("leaves any other error of code 402 alone", async () => {
    const other = { jsonrpc: "2.0", id: request.id, error: { code: 402, message: "Pay us" } };
    const { response, asked } = await payCall(Response.json(other), () => Response.json({}));
    expect(asked).toEqual([]);
    expect(await response.json()).toEqual(other);
  });
});

describe("rewriteSse", () => {
  it("passes the page's cancel on to the server's stream", async () => {
    const cancelled: unknown[] = [];
    const server = new Response(
      new ReadableStream({ cancel: (reason) => void cancelled.push(reason) }),
      { headers: { "content-type": "text/event-stream" } },
    );
    const page = rewriteSse(server, async (_message, event, emit) => emit(event.raw));
    await expect(page.body?.cancel("closed by the page")).resolves.toBeUndefined();
    expect(cancelled).toEqual(["closed by the page"]);
  });
});

describe("withCall: the tools/call an HTTP price's POST carries (seed 004)", () => {
  const http: PaymentChallenge = {
    transport: "http",
    url: "https://mcp.example/mcp",
    method: "POST",
    body: "{}",
    paymentRequiredHeader: null,
  };
  const request = (args?: unknown): JsonRpcRequest => ({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "verify_agent", ...(args === undefined ? {} : { arguments: args }) },
  });

  it("passes the call on beside the price, none sent as {} (as argsHash counts it)", () => {
    expect(withCall(http, toolCallOf(request({ agent: "a" })))).toEqual({
      ...http,
      call: { tool: "verify_agent", arguments: { agent: "a" } },
    });
    expect(withCall(http, toolCallOf(request()))).toEqual({
      ...http,
      call: { tool: "verify_agent", arguments: {} },
    });
  });

  it("leaves out arguments too long to pass on, never the price: the window says so", () => {
    const long = { doc: "x".repeat(DESCRIBED_ARGUMENTS_CHARS) };
    expect(withCall(http, toolCallOf(request(long)))).toEqual({
      ...http,
      call: { tool: "verify_agent" },
    });
  });

  it("describes only a tools/call, and only beside an HTTP price", () => {
    expect(toolCallOf({ jsonrpc: "2.0", id: 2, method: "tools/list" })).toBeUndefined();
    const mcp: PaymentChallenge = { transport: "mcp", server: "s", tool: "t", arguments: {} };
    expect(withCall(mcp, toolCallOf(request({})))).toBe(mcp);
    expect(withCall(http, undefined)).toBe(http);
  });
});

// MCP's SDK client resumes only after a non-empty id on an event with data (eventsource-parser
// dispatches no other), and not once a result came on the stream.
describe("a paid retry's stream that the page's SDK client will not resume", () => {
  const note = formatSseMessage({ jsonrpc: "2.0", method: "notifications/progress" });
  it.each([
    ["its only id is empty (`id:`), which resumes nothing", `id:\n${note}`],
    ["its only id is on an event without data (never dispatched)", `id: ev1\n\n${note}`],
    [
      "a result to another request came on it (the SDK then stops resuming)",
      `id: ev1\n${formatSseMessage({ jsonrpc: "2.0", id: 99, result: {} })}`,
    ],
  ])("answers the page's call that the wallet paid when %s", async (_how, body) => {
    const sse = { headers: { "content-type": "text/event-stream" } };
    const { response } = await payCall(Response.json(refusal), () => new Response(body, sse));
    expect(await response.text()).toContain("The Stipendex wallet paid for verify_agent");
  });
});

// Seed 004: the reason comes back "so your client can fix it"; x402's own clients return it.
describe("handleMcpResponse: an x402 server refusing the paid retry", () => {
  const x402Refusal = {
    jsonrpc: "2.0",
    id: retryId,
    error: {
      code: -32402,
      message: "Payment failed: insufficient_funds",
      data: { x402Version: 2 },
    },
  };

  it("hands the page the refusal in JSON, under its call's id", async () => {
    const { response, receipts } = await payCall(
      Response.json(refusal),
      () => Response.json(x402Refusal),
      "x402/payment",
    );
    expect(await response.json()).toEqual({ ...x402Refusal, id: request.id });
    expect(receipts).toMatchObject([{ paymentId: "m1", error: x402Refusal.error }]);
  });

  it("hands the page the refusal on SSE, under its call's id", async () => {
    const { response, receipts } = await payCall(
      sse(refusal),
      () => sse(x402Refusal),
      "x402/payment",
    );
    expect(await response.text()).toBe(formatSseMessage({ ...x402Refusal, id: request.id }));
    expect(receipts).toMatchObject([{ paymentId: "m1", error: x402Refusal.error }]);
  });

  it("hands the page an HTTP 402 refusal as it came, its reason filed first", async () => {
    const said = '{"error":"payment_parse"}';
    const { response, receipts } = await payCall(
      Response.json(refusal),
      () => new Response(said, { status: 402, headers: { "content-type": "application/json" } }),
      "x402/payment",
    );
    expect(receipts).toEqual([
      { paymentId: "m1", status: 402, receipt: null, error: { code: 402, message: said } },
    ]);
    expect(response.status).toBe(402);
    expect(await response.text()).toBe(said);
  });
});
