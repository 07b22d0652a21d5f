import { describe, expect, it } from "vitest";
import { PAGE_LIMITS } from "../hook/wallet-link";
import { ErrorCode, type PaymentChallenge } from "../messages";
import { jsonProblem, parsePageParams } from "./page-params";
import { RpcError } from "./rpc-error";

const http: PaymentChallenge = {
  transport: "http",
  url: "https://api.example.com/search?q=x",
  method: "GET",
  body: '{"quote":{}}',
  paymentRequiredHeader: null,
};
const mcp: PaymentChallenge = {
  transport: "mcp",
  server: "https://api.example.com/mcp",
  tool: "search",
  arguments: { q: "x" },
  error: { code: -32402, message: "Payment required", data: { quote: {} } },
};

/** `[[[…]]]`, `levels` arrays deep. */
function nested(levels: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

function refusal(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a refusal");
}

describe("parsePageParams", () => {
  it("takes the tools/call an HTTP price's POST carries, and leaves out one it would not take", () => {
    const call = { tool: "verify_agent", arguments: { agent: "a-1" } };
    expect(
      parsePageParams("stipendex_pay", { requestId: "r", challenge: { ...http, call } }),
    ).toEqual({ requestId: "r", challenge: { ...http, call } });
    const named = { tool: "verify_agent" };
    expect(
      parsePageParams("stipendex_pay", { requestId: "r", challenge: { ...http, call: named } }),
    ).toEqual({ requestId: "r", challenge: { ...http, call: named } });
    for (const wrong of [
      { tool: "t".repeat(PAGE_LIMITS.name + 1), arguments: {} },
      { tool: "long", arguments: "x".repeat(PAGE_LIMITS.json) },
      { tool: "deep", arguments: nested(PAGE_LIMITS.jsonDepth + 1) },
      { tool: 7, arguments: {} },
      "verify_agent",
    ]) {
      // Only shown: the price is read all the same, without it.
      expect(
        parsePageParams("stipendex_pay", { requestId: "r", challenge: { ...http, call: wrong } }),
      ).toEqual({ requestId: "r", challenge: http });
    }
  });

  it("passes well-formed params through, dropping keys a page adds", () => {
    expect(parsePageParams("stipendex_pay", { requestId: "r1", challenge: http })).toEqual({
      requestId: "r1",
      challenge: http,
    });
    expect(
      parsePageParams("stipendex_pay", {
        requestId: "r2",
        challenge: mcp,
        origin: "https://bank.example",
      }),
    ).toEqual({ requestId: "r2", challenge: mcp });
    const report = {
      server: mcp.server,
      tools: [{ name: "search" }],
      origins: ["https://x.example"],
    };
    expect(parsePageParams("stipendex_reportMcpServer", report)).toEqual({
      server: mcp.server,
      tools: [{ name: "search", pricing: undefined }],
    });
    const elicit = {
      server: mcp.server,
      params: { _meta: { "stipendex/quote": { jws: "a.b.c" } } },
    };
    expect(parsePageParams("stipendex_elicit", elicit)).toEqual(elicit);
    const withdrawable = { ...elicit, requestId: "e1" };
    expect(parsePageParams("stipendex_elicit", withdrawable)).toEqual(withdrawable);
    expect(parsePageParams("stipendex_status", { anything: 1 })).toBeUndefined();
  });

  it("reads what an MCP server declared leniently: a hint it cannot show is left out, the rest kept", () => {
    expect(
      parsePageParams("stipendex_reportMcpServer", {
        server: mcp.server,
        tools: [
          { name: "x".repeat(257), pricing: { model: "per_call" } },
          { name: 42 },
          { name: "priced", pricing: { model: "per_call", estimate: "9".repeat(65) } },
          { name: "odd", pricing: { model: 3, estimate: "$0.01" } },
          { name: "bare", pricing: "free" },
          "not a tool",
        ],
      }),
    ).toEqual({
      server: mcp.server,
      tools: [
        { name: "priced", pricing: { model: "per_call" } },
        { name: "odd", pricing: { estimate: "$0.01" } },
        { name: "bare", pricing: undefined },
      ],
    });
    expect(
      parsePageParams("stipendex_reportMcpServer", {
        server: mcp.server,
        stipendexPayments: { version: "v".repeat(65) },
      }),
    ).toEqual({ server: mcp.server, stipendexPayments: {} });
    expect(
      parsePageParams("stipendex_reportMcpServer", { server: mcp.server, stipendexPayments: true }),
    ).toEqual({ server: mcp.server });
  });

  it("takes an MCP call without arguments (JSON drops undefined)", () => {
    const { arguments: _none, ...bare } = mcp;
    expect(parsePageParams("stipendex_pay", { requestId: "r", challenge: bare })).toEqual({
      requestId: "r",
      challenge: { ...bare, arguments: undefined },
    });
  });

  it.each<[string, () => unknown, string]>([
    [
      `a URL over ${PAGE_LIMITS.url} characters`,
      () =>
        parsePageParams("stipendex_pay", {
          requestId: "r",
          challenge: { ...http, url: `https://a.example/${"x".repeat(PAGE_LIMITS.url)}` },
        }),
      `challenge.url: must be at most ${PAGE_LIMITS.url} characters`,
    ],
    // Red-team review: a method of free words, or a URL with a user part, put its own text
    // before the address in the window ("GET https://api.openai.com/… verified by OpenAI").
    [
      "a method that is not an HTTP token",
      () =>
        parsePageParams("stipendex_pay", {
          requestId: "r",
          challenge: { ...http, method: "GET https://api.openai.com/v1/chat verified \u202eTSET" },
        }),
      "challenge.method: must be an HTTP method",
    ],
    [
      "a URL with a user part",
      () =>
        parsePageParams("stipendex_pay", {
          requestId: "r",
          challenge: { ...http, url: "https://api.openai.com@127.0.0.1:9/v1/chat" },
        }),
      "challenge.url: must not carry a user name or password",
    ],
    [
      "an MCP server URL with a password",
      () =>
        parsePageParams("stipendex_pay", {
          requestId: "r",
          challenge: { ...mcp, server: "https://u:p@api.example.com/mcp" },
        }),
      "challenge.server: must not carry a user name or password",
    ],
    [
      "a request id over 128 characters",
      () => parsePageParams("stipendex_pay", { requestId: "r".repeat(129), challenge: http }),
      "requestId: must be at most 128 characters",
    ],
    [
      "a tool name over 256 characters",
      () =>
        parsePageParams("stipendex_pay", {
          requestId: "r",
          challenge: { ...mcp, tool: "t".repeat(257) },
        }),
      "challenge.tool: must be at most 256 characters",
    ],
    [
      "a 1 MB 402 body",
      () =>
        parsePageParams("stipendex_pay", {
          requestId: "r",
          challenge: { ...http, body: "x".repeat(1024 * 1024) },
        }),
      "challenge.body: must be at most 65536 characters",
    ],
    [
      "MCP arguments over 1 MiB as JSON",
      () =>
        parsePageParams("stipendex_pay", {
          requestId: "r",
          challenge: { ...mcp, arguments: { text: "x".repeat(1024 * 1024) } },
        }),
      "challenge.arguments: must be at most 1048576 characters as JSON",
    ],
    [
      "error data nested 33 deep",
      () =>
        parsePageParams("stipendex_pay", {
          requestId: "r",
          challenge: { ...mcp, error: { code: -32402, message: "m", data: nested(33) } },
        }),
      "challenge.error.data: must nest at most 32 levels deep",
    ],
    [
      "201 tools in one report",
      () =>
        parsePageParams("stipendex_reportMcpServer", {
          server: mcp.server,
          tools: Array.from({ length: 201 }, (_, i) => ({ name: `t${i}` })),
        }),
      "tools: must have at most 200 items",
    ],
    [
      "a receipt of 100 KB",
      () =>
        parsePageParams("stipendex_receipt", {
          paymentId: "p",
          status: 200,
          receipt: "r".repeat(100_000),
        }),
      "receipt: must be at most 65536 characters as JSON",
    ],
    [
      "a receipt saying its retry went unanswered in words of its own",
      () =>
        parsePageParams("stipendex_receipt", {
          paymentId: "p",
          status: 0,
          receipt: null,
          unanswered: "the server exploded",
        }),
      "unanswered:",
    ],
    [
      "an elicitation _meta entry of 100 KB",
      () =>
        parsePageParams("stipendex_elicit", {
          server: mcp.server,
          params: { _meta: { "stipendex/quote": "q".repeat(100_000) } },
        }),
      "params._meta: must be at most 65536 characters as JSON",
    ],
    [
      "an elicitation's request id of 1 KB",
      () =>
        parsePageParams("stipendex_elicit", {
          server: mcp.server,
          requestId: "e".repeat(1_000),
          params: {},
        }),
      "requestId",
    ],
    [
      "an elicitation _meta of many small entries",
      () =>
        parsePageParams("stipendex_elicit", {
          server: mcp.server,
          params: {
            _meta: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, "v"])),
          },
        }),
      "params._meta: must be at most 65536 characters as JSON",
    ],
    [
      "a missing request id",
      () => parsePageParams("stipendex_pay", { challenge: http }),
      "requestId: is required",
    ],
    [
      "a number for a string",
      () => parsePageParams("stipendex_getPricing", { server: 42 }),
      "server: expected string",
    ],
    [
      "no params at all",
      () => parsePageParams("stipendex_getPricing", undefined),
      "params: is required",
    ],
  ])("refuses %s with InvalidParams naming the field and its limit", (_what, run, detail) => {
    const error = refusal(run);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ rpcCode: ErrorCode.InvalidParams });
    expect(error.message).toContain(detail);
  });

  it("accepts what is just within the limits", () => {
    const body = "x".repeat(PAGE_LIMITS.challenge);
    expect(() =>
      parsePageParams("stipendex_pay", {
        requestId: "r".repeat(128),
        challenge: { ...http, body },
      }),
    ).not.toThrow();
    const deep = { ...mcp, error: { code: -32402, message: "m", data: nested(32) } };
    expect(() =>
      parsePageParams("stipendex_pay", { requestId: "r", challenge: deep }),
    ).not.toThrow();
  });
});

describe("jsonProblem", () => {
  it("refuses what is not JSON, including what Firefox's structured clone could carry", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const value of [new Date(0), new Map(), Number.NaN, () => 1, undefined, cyclic]) {
      expect(jsonProblem(value, 1000)).toBeDefined();
    }
    expect(
      jsonProblem({ a: [1, "two", null, true, { b: Object.create(null) }] }, 1000),
    ).toBeUndefined();
  });

  it("walks a widely shared value no further than its size allows", () => {
    // 2^30 paths through 30 shared levels: counting every visit stops the walk long before.
    let shared: unknown = 0;
    for (let i = 0; i < 30; i++) shared = [shared, shared];
    expect(jsonProblem(shared, 1000)).toBe("must be at most 1000 characters as JSON");
  });
});
