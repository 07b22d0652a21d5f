import { describe, expect, it } from "vitest";
import { declareElicitation, McpSessions, routeElicitation } from "./mcp-session";

const initialize = (protocolVersion: string, capabilities: Record<string, unknown>) => ({
  jsonrpc: "2.0" as const,
  id: 0,
  method: "initialize",
  params: { protocolVersion, capabilities, clientInfo: { name: "page", version: "1" } },
});

describe("declareElicitation", () => {
  it("declares form mode for a client that declared no elicitation, keeping everything else", () => {
    const request = initialize("2025-06-18", { roots: {} });
    const { walletAnswersForms, body } = declareElicitation(request);
    expect(walletAnswersForms).toBe(true);
    expect(JSON.parse(body ?? "")).toEqual({
      ...request,
      params: { ...request.params, capabilities: { roots: {}, elicitation: { form: {} } } },
    });
  });

  it("adds form mode beside a URL-only declaration", () => {
    const { walletAnswersForms, body } = declareElicitation(
      initialize("2025-11-25", { elicitation: { url: {} } }),
    );
    expect(walletAnswersForms).toBe(true);
    expect(JSON.parse(body ?? "").params.capabilities.elicitation).toEqual({ url: {}, form: {} });
  });

  it("leaves a client that takes forms alone: the bare {} of 2025-06-18, or form", () => {
    for (const elicitation of [{}, { form: {} }, { form: {}, url: {} }]) {
      expect(declareElicitation(initialize("2025-11-25", { elicitation }))).toEqual({
        walletAnswersForms: false,
      });
    }
  });

  it("declares nothing on a revision without elicitation, or without a revision", () => {
    expect(declareElicitation(initialize("2025-03-26", {}))).toEqual({ walletAnswersForms: false });
    expect(declareElicitation({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })).toEqual(
      { walletAnswersForms: false },
    );
  });
});

describe("routeElicitation", () => {
  const quote = { _meta: { "stipendex/quote": { stipendex: "quote/0.1" } } };

  it("takes payment confirmations in form mode, whoever declared forms", () => {
    expect(routeElicitation({ message: "Pay?", ...quote }, false)).toBe("wallet");
    expect(routeElicitation({ mode: "form", ...quote }, true)).toBe("wallet");
  });

  it("declines other forms only where the wallet declared forms for the page", () => {
    expect(routeElicitation({ message: "Your name?", requestedSchema: {} }, true)).toBe("decline");
    expect(routeElicitation({ message: "Your name?", requestedSchema: {} }, false)).toBe("page");
  });

  it("passes URL-mode elicitations through untouched, even with a Quote in _meta", () => {
    expect(routeElicitation({ mode: "url", url: "https://pay.example", ...quote }, true)).toBe(
      "page",
    );
  });
});

describe("McpSessions", () => {
  it("tells sessions apart by endpoint and session id, and forgets the oldest past 64", () => {
    const sessions = new McpSessions();
    sessions.remember("https://a.example/mcp", "s1", true);
    sessions.remember("https://a.example/mcp", null, false);
    expect(sessions.walletAnswersForms("https://a.example/mcp", "s1")).toBe(true);
    expect(sessions.walletAnswersForms("https://a.example/mcp", null)).toBe(false);
    expect(sessions.walletAnswersForms("https://b.example/mcp", "s1")).toBeUndefined();
    for (let i = 0; i < 64; i++) sessions.remember("https://c.example/mcp", `s${i}`, true);
    expect(sessions.walletAnswersForms("https://a.example/mcp", "s1")).toBeUndefined();
    expect(sessions.walletAnswersForms("https://c.example/mcp", "s63")).toBe(true);
  });

  it("hands a call stream's resumption to the one GET resuming it from that event, once", () => {
    const sessions = new McpSessions();
    const resume = async (response: Response) => response;
    sessions.awaitResumption("https://a.example/mcp", "s1", "ev-7", resume);
    expect(sessions.takeResumption("https://a.example/mcp", "s2", "ev-7")).toBeUndefined();
    expect(sessions.takeResumption("https://a.example/mcp", "s1", "ev-6")).toBeUndefined();
    const other = async (response: Response) => response;
    expect(sessions.takeResumption("https://a.example/mcp", "s1", "ev-7", other)).toBeUndefined();
    expect(sessions.takeResumption("https://a.example/mcp", "s1", "ev-7")).toBe(resume);
    // Its price is never paid twice: a second GET from the same event is the server's to answer.
    expect(sessions.takeResumption("https://a.example/mcp", "s1", "ev-7")).toBeUndefined();
  });

  it("keeps the latest 256 streams awaiting resumption", () => {
    const sessions = new McpSessions();
    for (let i = 0; i <= 256; i++) {
      sessions.awaitResumption("https://a.example/mcp", "s1", `ev-${i}`, async (r) => r);
    }
    expect(sessions.takeResumption("https://a.example/mcp", "s1", "ev-0")).toBeUndefined();
    expect(sessions.takeResumption("https://a.example/mcp", "s1", "ev-1")).toBeDefined();
    expect(sessions.takeResumption("https://a.example/mcp", "s1", "ev-256")).toBeDefined();
  });
});
