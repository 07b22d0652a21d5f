import { randomUUID } from "node:crypto";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import express, { type Request, type Response, type Router } from "express";
import { requestUrl } from "../receiver/http";
import { createPaidMcpServer, type McpServerOptions } from "./server";

export type McpRouterOptions = Omit<
  McpServerOptions,
  "endpoint" | "callStreams" | "pollCalls" | "confirmWithinMs"
>;

/**
 * The demo switch for a server that gives up waiting for the person:
 * `?confirmWithinMs=<ms>` on the endpoint URL (1 s to 60 s) bounds
 * confirmed_search's elicitation, which the SDK then cancels.
 */
function confirmWithinMs(req: Request): number | undefined {
  const asked = Number(req.query.confirmWithinMs);
  return Number.isInteger(asked) ? Math.min(Math.max(asked, 1_000), 60_000) : undefined;
}

/**
 * Streamable HTTP endpoints: `/mcp` answers POSTs with JSON, `/mcp-sse` with
 * SSE streams, `/mcp-poll` with SSE streams it closes after their priming
 * event, as a server polling a long call does (MCP 2025-11-25): the client
 * resumes each by GET with its Last-Event-ID, and the answer comes there.
 */
export const MCP_ENDPOINTS = { json: "/mcp", sse: "/mcp-sse", poll: "/mcp-poll" } as const;

/** How an endpoint answers a POST (see MCP_ENDPOINTS). */
type Answers = "json" | "sse" | "poll";

/** The reconnection delay a polling endpoint asks of its clients (the priming event's `retry`). */
const POLL_RETRY_MS = 100;

function rpcError(res: Response, status: number, message: string): void {
  res.status(status).json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
}

/**
 * Serves one endpoint: a new session (Server + transport) per `initialize`, later requests
 * routed by `Mcp-Session-Id`.
 */
function endpointHandler(options: McpRouterOptions, answers: Answers) {
  const sse = answers !== "json";
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  return async (req: Request, res: Response) => {
    const sessionId = req.get("Mcp-Session-Id");
    const existing = sessionId ? sessions.get(sessionId) : undefined;
    if (existing) {
      await existing.handleRequest(req, res, req.body);
      return;
    }
    if (sessionId) return rpcError(res, 404, `Unknown Mcp-Session-Id ${sessionId}`);
    if (req.method !== "POST" || !isInitializeRequest(req.body)) {
      return rpcError(res, 400, "No Mcp-Session-Id: send initialize first");
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: !sse,
      ...(answers === "poll"
        ? { eventStore: new InMemoryEventStore(), retryInterval: POLL_RETRY_MS }
        : {}),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const within = confirmWithinMs(req);
    const server = createPaidMcpServer({
      ...options,
      // The URL as the client posts it (query included): what its Quotes are bound to.
      endpoint: requestUrl(req),
      callStreams: sse,
      pollCalls: answers === "poll",
      ...(within === undefined ? {} : { confirmWithinMs: within }),
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };
}

export function mcpRouter(options: McpRouterOptions): Router {
  const router = express.Router();
  router.use(express.json({ limit: "256kb" }));
  router.all(MCP_ENDPOINTS.json, endpointHandler(options, "json"));
  router.all(MCP_ENDPOINTS.sse, endpointHandler(options, "sse"));
  router.all(MCP_ENDPOINTS.poll, endpointHandler(options, "poll"));
  return router;
}
