import { SEED_402_TOOL } from "./mcp/seed-402";
import { type DemoUrls, HTTP_PRICES } from "./server";

/** A paid demo endpoint: the request an agent makes, answered 402 until it pays. */
export interface PaidEndpoint {
  name: string;
  /** Atomic units of the 6-decimal demo token. */
  price: bigint;
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** The demo's paid HTTP endpoints (the MCP servers that answer -32402 are for MCP clients). */
export function paidEndpoints(urls: DemoUrls): PaidEndpoint[] {
  const search = (name: string, base: string, price: bigint): PaidEndpoint => ({
    name,
    price,
    url: `${base}/api/search?q=hello`,
    method: "GET",
    headers: {},
  });
  return [
    search("Stipendex search", urls.stipendex, HTTP_PRICES.stipendex),
    search("x402 v1 search", urls.x402v1, HTTP_PRICES.x402v1),
    search("x402 v2 search", urls.x402v2, HTTP_PRICES.x402v2),
    {
      name: `MCP tool ${SEED_402_TOOL} (answers HTTP 402)`,
      price: HTTP_PRICES.seed402,
      url: urls.mcp402,
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: SEED_402_TOOL, arguments: { agent: "demo" } },
      }),
    },
  ];
}

/** The endpoint's request as one `curl` line a person can paste. */
export function curlLine(endpoint: PaidEndpoint): string {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  return [
    "curl -i",
    ...(endpoint.method === "GET" ? [] : [`-X ${endpoint.method}`]),
    quote(endpoint.url),
    ...Object.entries(endpoint.headers).map(([name, value]) => `-H ${quote(`${name}: ${value}`)}`),
    ...(endpoint.body === undefined ? [] : [`-d ${quote(endpoint.body)}`]),
  ].join(" ");
}
