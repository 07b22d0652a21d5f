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
  mcp402: string;
}

const config = JSON.parse(
  document.getElementById("agent-config")?.textContent ?? "{}",
) as AgentConfig;
const clients = new Map<string, Promise<Client>>();

/** One MCP client per endpoint, declaring elicitation so a wallet can answer confirmations. */
function connect(endpoint: string): Promise<Client> {
  let client = clients.get(endpoint);
  if (!client) {
    client = (async () => {
      const c = new Client(
        { name: "stipendex-demo-agent", version: "0.1.0" },
        { capabilities: { elicitation: {} } },
      );
      // Without a wallet nobody can confirm a payment: decline, and show the request.
      c.setRequestHandler(ElicitRequestSchema, (request) => {
        show("result-elicitation", { declined: true, request: request.params });
        return { action: "decline" };
      });
      await c.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
      return c;
    })();
    clients.set(endpoint, client);
    client.catch(() => clients.delete(endpoint));
  }
  return client;
}

async function listTools(endpoint: string = config.mcpSse) {
  return (await connect(endpoint)).listTools();
}

/** Calls a tool and returns the raw outcome: the result, or the JSON-RPC error with its data. */
async function callTool(endpoint: string, name: string, args: Record<string, unknown> = {}) {
  try {
    return {
      ok: true,
      result: await (await connect(endpoint)).callTool({ name, arguments: args }),
    };
  } catch (error) {
    const e = error as { code?: number; message?: string; data?: unknown };
    return { ok: false, error: { code: e.code, message: e.message, data: e.data } };
  }
}

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
  "result-mcp-x402": () => callTool(config.mcpJson, "x402_search", { query: "402" }),
  "result-mcp-confirmed": () => callTool(config.mcpSse, "confirmed_search", { query: "402" }),
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

Object.assign(window, { agent: { config, listTools, callTool, fetchApi } });
document.body.setAttribute("data-ready", "true");
