/// <reference lib="dom" />
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** Endpoints the agent page talks to; the server puts them in the page as JSON. */
interface AgentConfig {
  stipendex: string;
  x402v1: string;
  x402v2: string;
  mcpJson: string;
  mcpSse: string;
  mcpPoll: string;
  mcp402: string;
}

const config = JSON.parse(
  document.getElementById("agent-config")?.textContent ?? "{}",
) as AgentConfig;
const clients = new Map<string, Promise<Client>>();
/** The `elicitation/create` requests that reached a client that declared no elicitation. */
const undeclaredElicitations: unknown[] = [];

/**
 * Which MCP client a call goes through: one that declares elicitation (and
 * declines, showing the request, when nobody else answers), or a plain one
 * that declares none, as many agents' clients do; "once": a declaring one
 * connected for the call and closed after it (a server that polls keeps each
 * stream the client resumed open, and a browser opens six at most per server).
 */
type ClientKind = "declaring" | "plain" | "once";

/** A new MCP client of `endpoint`, connected. */
async function open(endpoint: string, kind: ClientKind): Promise<Client> {
  const info = { name: "stipendex-demo-agent", version: "0.1.0" };
  const transport = new StreamableHTTPClientTransport(new URL(endpoint));
  if (kind === "plain") {
    const c = new Client(info);
    await c.connect(transport);
    // Sees every message the client receives, so a test can tell none was an elicitation.
    const deliver = transport.onmessage;
    transport.onmessage = (message) => {
      if ("method" in message && message.method === "elicitation/create") {
        undeclaredElicitations.push(message);
      }
      deliver?.(message);
    };
    return c;
  }
  const c = new Client(info, { capabilities: { elicitation: {} } });
  // Without a wallet nobody can confirm a payment: decline, and show the request.
  c.setRequestHandler(ElicitRequestSchema, (request) => {
    show("result-elicitation", { declined: true, request: request.params });
    return { action: "decline" };
  });
  await c.connect(transport);
  return c;
}

/** One MCP client per endpoint and kind, kept. */
function connect(endpoint: string, kind: ClientKind = "declaring"): Promise<Client> {
  const key = `${kind} ${endpoint}`;
  let client = clients.get(key);
  if (!client) {
    client = open(endpoint, kind);
    clients.set(key, client);
    client.catch(() => clients.delete(key));
  }
  return client;
}

async function listTools(endpoint: string = config.mcpSse) {
  return (await connect(endpoint)).listTools();
}

/** Calls a tool and returns the raw outcome: the result, or the JSON-RPC error with its data. */
async function callTool(
  endpoint: string,
  name: string,
  args: Record<string, unknown> = {},
  kind: ClientKind = "declaring",
) {
  let client: Client | undefined;
  try {
    client = kind === "once" ? await open(endpoint, kind) : await connect(endpoint, kind);
    return { ok: true, result: await client.callTool({ name, arguments: args }) };
  } catch (error) {
    const e = error as { code?: number; message?: string; data?: unknown };
    return { ok: false, error: { code: e.code, message: e.message, data: e.data } };
  } finally {
    if (kind === "once") await client?.close();
  }
}

/** How long the impatient server waits for the person's confirmation. */
const IMPATIENT_MS = 4_000;

const RECEIPT_HEADERS = [
  "Stipendex-Receipt",
  "PAYMENT-RESPONSE",
  "X-PAYMENT-RESPONSE",
  "PAYMENT-REQUIRED",
];

/** Plain fetch of a paid HTTP API: status, the payment headers, and the body. */
async function fetchApi(base: string, query = "model context protocol") {
  const response = await fetch(`${base}/api/search?q=${encodeURIComponent(query)}`);
  const headers: Record<string, string> = {};
  for (const name of RECEIPT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: show the text as it came.
  }
  return { status: response.status, headers, body };
}

function show(testId: string, value: unknown): void {
  const element = document.querySelector(`[data-testid="${testId}"]`);
  if (!element) return;
  element.textContent = JSON.stringify(value, null, 2);
  element.setAttribute("data-state", "done");
}

const actions: Record<string, () => Promise<unknown>> = {
  "result-tools": async () => {
    const { tools } = await listTools();
    return tools.map((t) => ({ name: t.name, pricing: t._meta?.["stipendex/pricing"] }));
  },
  "result-stipendex-http": () => fetchApi(config.stipendex),
  "result-x402-v1": () => fetchApi(config.x402v1),
  "result-x402-v2": () => fetchApi(config.x402v2),
  "result-mcp-json": () => callTool(config.mcpJson, "web_search", { query: "402" }),
  "result-mcp-sse": () => callTool(config.mcpSse, "web_search", { query: "402" }),
  "result-mcp-poll": () => callTool(config.mcpPoll, "web_search", { query: "402" }, "once"),
  "result-mcp-x402": () => callTool(config.mcpJson, "x402_search", { query: "402" }),
  "result-mcp-confirmed": () => callTool(config.mcpSse, "confirmed_search", { query: "402" }),
  "result-mcp-confirmed-plain": async () => ({
    ...(await callTool(config.mcpSse, "confirmed_search", { query: "402" }, "plain")),
    undeclaredElicitations: undeclaredElicitations.length,
  }),
  "result-mcp-confirmed-json": () => callTool(config.mcpJson, "confirmed_search", { query: "402" }),
  "result-mcp-confirmed-impatient": () =>
    callTool(`${config.mcpSse}?confirmWithinMs=${IMPATIENT_MS}`, "confirmed_search", {
      query: "402",
    }),
  "result-mcp-l2": () => callTool(config.mcpJson, "deep_research", { query: "402", pages: 2 }),
  "result-mcp-free": () => callTool(config.mcpJson, "server_time"),
  "result-mcp-surge": () => callTool(config.mcpSse, "surge_search", { query: "402" }),
  "result-mcp-402": () => callTool(config.mcp402, "verify_agent", { agent: "0xagent" }),
};

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-result]")) {
  button.addEventListener("click", async () => {
    const target = button.dataset.result ?? "";
    const run = actions[target];
    if (!run) return;
    document.querySelector(`[data-testid="${target}"]`)?.setAttribute("data-state", "running");
    try {
      show(target, await run());
    } catch (error) {
      show(target, { failed: error instanceof Error ? error.message : String(error) });
    }
  });
}

Object.assign(window, {
  agent: { config, listTools, callTool, fetchApi, undeclaredElicitations },
});
document.body.setAttribute("data-ready", "true");
