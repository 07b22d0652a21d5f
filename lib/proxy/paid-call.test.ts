import { describe, expect, it } from "vitest";
import { PAGE_LIMITS } from "../hook/wallet-link";
import type { PaymentChallenge, ReceiptParams } from "../messages";
import { ProxyError, UpstreamAnswerError } from "./errors";
import { type CallOutcome, callPaying, type ProxyWallet, type ToolCallParams } from "./paid-call";

const SERVER = "http://127.0.0.1:4020/mcp";
const QUOTE_ERROR = { code: -32402, message: "Payment required", data: { quote: "eyJ..." } };
const PAID = { content: [{ type: "text", text: "results" }], _meta: { "stipendex/receipt": "r" } };

/** A wallet that pays with `answer` (or refuses with `refusal`), keeping what it was asked. */
function wallet(refusal?: Error) {
  const paid: PaymentChallenge[] = [];
  const receipts: ReceiptParams[] = [];
  const proxyWallet: ProxyWallet = {
    pay: async (challenge) => {
      paid.push(challenge);
      if (refusal) throw refusal;
      return { paymentId: "pay-1", meta: { key: "stipendex/payment", value: "proof" } };
    },
    receipt: async (params) => {
      receipts.push(params);
    },
    elicit: async () => ({ action: "cancel" }),
    report: async () => undefined,
  };
  return { proxyWallet, paid, receipts };
}

/** An upstream that answers each send with the next outcome, keeping the params it was sent. */
function upstream(...outcomes: CallOutcome[]) {
  const sent: ToolCallParams[] = [];
  return {
    sent,
    send: async (params: ToolCallParams) => {
      sent.push(params);
      const next = outcomes.shift();
      if (!next) throw new Error("no more answers");
      return next;
    },
  };
}

const call: ToolCallParams = {
  name: "web_search",
  arguments: { query: "q" },
  _meta: { progressToken: 7 },
};

describe("callPaying", () => {
  it("passes an unpriced answer through untouched, without the wallet", async () => {
    const server = upstream({ result: { content: [] } });
    const w = wallet();
    expect(await callPaying(SERVER, call, server.send, w.proxyWallet)).toEqual({
      result: { content: [] },
    });
    expect(w.paid).toEqual([]);
  });

  it("pays a -32402 quote, retries with the payment beside the host's _meta, and files the receipt", async () => {
    const server = upstream({ error: QUOTE_ERROR }, { result: PAID });
    const w = wallet();
    const outcome = await callPaying(SERVER, call, server.send, w.proxyWallet);
    expect(outcome).toEqual({ result: PAID });
    expect(w.paid).toEqual([
      {
        transport: "mcp",
        server: SERVER,
        tool: "web_search",
        arguments: { query: "q" },
        error: QUOTE_ERROR,
      },
    ]);
    expect(server.sent[1]).toEqual({
      ...call,
      _meta: { progressToken: 7, "stipendex/payment": "proof" },
    });
    expect(w.receipts).toEqual([
      {
        paymentId: "pay-1",
        status: 200,
        receipt: "r",
        resultHash: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      },
    ]);
  });

  it("pays an x402 PaymentRequired result the same way", async () => {
    const required = {
      isError: true,
      structuredContent: { x402Version: 2, accepts: [] },
      content: [{ type: "text", text: "{}" }],
    };
    const server = upstream({ result: required }, { result: PAID });
    const w = wallet();
    expect(await callPaying(SERVER, call, server.send, w.proxyWallet)).toEqual({ result: PAID });
    expect(w.paid[0]).toMatchObject({ transport: "mcp", result: required });
  });

  it.each([
    ["structuredContent", { structuredContent: { "x402/error": { code: 402, data: {} } } }],
    ["_meta", { _meta: { "x402/error": { x402Version: 2, accepts: [] } } }],
  ])("pays an x402 PaymentRequired in an x402/error wrapper in %s", async (_where, carried) => {
    const required = { isError: true, ...carried, content: [{ type: "text", text: "Pay" }] };
    const server = upstream({ result: required }, { result: PAID });
    const w = wallet();
    expect(await callPaying(SERVER, call, server.send, w.proxyWallet)).toEqual({ result: PAID });
    expect(w.paid[0]).toMatchObject({ transport: "mcp", result: required });
  });

  it("says why when the wallet did not pay, keeping the server's request in data", async () => {
    const server = upstream({ error: QUOTE_ERROR });
    const w = wallet(new ProxyError("payment-not-made", "You declined the payment"));
    const outcome = await callPaying(SERVER, call, server.send, w.proxyWallet);
    expect(outcome).toEqual({
      error: {
        code: -32402,
        message:
          "web_search needs a payment and the Stipendex wallet did not make it: You declined the payment",
        data: { upstream: QUOTE_ERROR },
      },
    });
    expect(server.sent).toHaveLength(1);
  });

  it("reports a refused payment to the wallet and tells the host the server refused it", async () => {
    const refused = { code: -32402, message: "Proof rejected", data: { reason: "expired" } };
    const server = upstream({ error: QUOTE_ERROR }, { error: refused });
    const w = wallet();
    const outcome = await callPaying(SERVER, call, server.send, w.proxyWallet);
    expect(outcome).toMatchObject({
      error: {
        code: -32402,
        message:
          "The MCP server refused the payment the Stipendex wallet made for web_search: Proof rejected",
      },
    });
    expect(w.receipts).toEqual([
      { paymentId: "pay-1", status: 200, receipt: null, error: refused },
    ]);
  });

  // Black-box review (desktop proxy): the host read only "Payment required", the receiver's
  // reason being in `data.upstream` alone.
  it("tells the host a Stipendex refusal's reason, as envelope.md's -32402 data gives it", async () => {
    const refused = {
      code: -32402,
      message: "Payment required",
      data: { error: "insufficient_funds", detail: "balance 0", quote: "eyJ..." },
    };
    const server = upstream({ error: QUOTE_ERROR }, { error: refused });
    const outcome = await callPaying(SERVER, call, server.send, wallet().proxyWallet);
    expect(outcome).toMatchObject({
      error: {
        code: -32402,
        message:
          "The MCP server refused the payment the Stipendex wallet made for web_search: insufficient_funds: balance 0",
      },
    });
  });

  it.each([
    ["what it said", "payment_parse", "payment_parse"],
    [
      "its status, for a body longer than the wallet takes",
      "x".repeat(PAGE_LIMITS.challenge + 1),
      "HTTP 402",
    ],
  ])(
    "reports a paid retry answered HTTP 402 as a refusal with %s, and gives the host the original price",
    async (_, body, message) => {
      const server = upstream({ error: QUOTE_ERROR });
      const send = async (params: ToolCallParams) => {
        if (server.sent.length) throw new UpstreamAnswerError(402, body);
        return server.send(params);
      };
      const w = wallet();
      const outcome = await callPaying(SERVER, call, send, w.proxyWallet);
      expect(outcome).toMatchObject({
        error: { code: -32402, data: { upstream: QUOTE_ERROR } },
      });
      expect(w.receipts).toEqual([
        {
          paymentId: "pay-1",
          status: 402,
          receipt: null,
          error: { code: 402, message },
        },
      ]);
    },
  );

  it("reports a paid retry answered with another HTTP error (a gateway's 502 page) without a refusal, and tells the host the wallet paid", async () => {
    const server = upstream({ error: QUOTE_ERROR });
    const send = async (params: ToolCallParams) => {
      if (server.sent.length) throw new UpstreamAnswerError(502, "<h1>Bad Gateway</h1>");
      return server.send(params);
    };
    const w = wallet();
    expect(await callPaying(SERVER, call, send, w.proxyWallet)).toEqual({
      error: {
        code: -32603,
        message: `The Stipendex wallet paid for web_search, and the MCP server at ${SERVER} gave no answer to the paid call: <h1>Bad Gateway</h1>`,
      },
    });
    expect(w.receipts).toEqual([
      { paymentId: "pay-1", status: 502, receipt: null, unanswered: "not-an-answer" },
    ]);
  });

  it("reports a paid retry that got no HTTP answer with status 0, and tells the host the wallet paid", async () => {
    const server = upstream({ error: QUOTE_ERROR });
    const send = async (params: ToolCallParams) => {
      if (!server.sent.length) return server.send(params);
      const refused = new Error("connect ECONNREFUSED 127.0.0.1:4020");
      throw new TypeError("fetch failed", { cause: refused });
    };
    const w = wallet();
    expect(await callPaying(SERVER, call, send, w.proxyWallet)).toEqual({
      error: {
        code: -32603,
        message: `The Stipendex wallet paid for web_search, and the MCP server at ${SERVER} gave no answer to the paid call: fetch failed (connect ECONNREFUSED 127.0.0.1:4020)`,
      },
    });
    expect(w.receipts).toEqual([
      { paymentId: "pay-1", status: 0, receipt: null, unanswered: "no-response" },
    ]);
  });

  it("reports a paid retry the host gave up once it was sent as given up, not as the server's answer", async () => {
    const server = upstream({ error: QUOTE_ERROR });
    const cancel = new AbortController();
    const send = async (params: ToolCallParams) => {
      if (!server.sent.length) return server.send(params);
      // The host's notifications/cancelled while the paid retry is on its way.
      cancel.abort("host cancels");
      throw cancel.signal.reason;
    };
    const w = wallet();
    await callPaying(SERVER, call, send, w.proxyWallet, cancel.signal);
    expect(w.receipts).toEqual([
      { paymentId: "pay-1", status: 0, receipt: null, unanswered: "given-up" },
    ]);
  });

  it("reports a paid retry answered 2xx with no JSON-RPC answer without a refusal, and tells the host the wallet paid", async () => {
    const server = upstream({ error: QUOTE_ERROR });
    const send = async (params: ToolCallParams) => {
      if (server.sent.length) throw new UpstreamAnswerError(201, "HTTP 201 with JSON: {}");
      return server.send(params);
    };
    const w = wallet();
    expect(await callPaying(SERVER, call, send, w.proxyWallet)).toEqual({
      error: {
        code: -32603,
        message: `The Stipendex wallet paid for web_search, and the MCP server at ${SERVER} gave no answer to the paid call: HTTP 201 with JSON: {}`,
      },
    });
    expect(w.receipts).toEqual([
      { paymentId: "pay-1", status: 201, receipt: null, unanswered: "not-an-answer" },
    ]);
  });
});
