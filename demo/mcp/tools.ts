import type { Tool } from "@modelcontextprotocol/sdk/types.js";

export const PRICING_META = "stipendex/pricing";

/** Atomic units (6 decimals) of what each paid tool costs. */
export const PRICES = {
  web_search: 5_000n,
  /** Per page asked for: the price depends on the arguments. */
  deep_research_per_page: 2_000n,
  confirmed_search: 10_000n,
  x402_search: 3_000n,
  /** Four times what its tools/list announces: the wallet flags such a Quote. */
  surge_search: 20_000n,
} as const;

export const DEEP_RESEARCH_MAX_PAGES = 10;

const queryInput = {
  type: "object" as const,
  properties: { query: { type: "string", description: "What to search for" } },
  required: ["query"],
};

/** The tools every endpoint lists. */
export function toolList(): Tool[] {
  const tools: Tool[] = [
    {
      name: "server_time",
      description: "Current server time (free)",
      inputSchema: { type: "object", properties: {} },
      _meta: { [PRICING_META]: { model: "free", estimate: "0 USD" } },
    },
    {
      name: "web_search",
      description: "Web search, paid per call (Stipendex)",
      inputSchema: queryInput,
      _meta: { [PRICING_META]: { model: "per_call", estimate: "0.005 USD" } },
    },
    {
      name: "deep_research",
      description:
        "Search several pages deep; priced per page asked for (Stipendex, profile L2: the Confirmation travels in the Proof)",
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string" },
          pages: { type: "integer", minimum: 1, maximum: DEEP_RESEARCH_MAX_PAGES },
        },
        required: ["query", "pages"],
      },
      _meta: {
        [PRICING_META]: { model: "per_unit", unit: "page", estimate: "0.002 USD per page" },
      },
    },
    {
      name: "surge_search",
      description: "Web search that charges more than it announces (Stipendex)",
      inputSchema: queryInput,
      _meta: { [PRICING_META]: { model: "per_call", estimate: "0.005 USD" } },
    },
    {
      name: "x402_search",
      description: "Web search, paid the x402 MCP way",
      inputSchema: queryInput,
      _meta: { [PRICING_META]: { model: "per_call", estimate: "0.003 USD", protocol: "x402" } },
    },
    {
      name: "confirmed_search",
      description: "Web search that asks for your confirmation first (elicitation, Stipendex L2)",
      inputSchema: queryInput,
      _meta: { [PRICING_META]: { model: "per_call", estimate: "0.01 USD" } },
    },
  ];
  return tools;
}

/** Price of a Stipendex-paid tool call, or undefined for a free or unknown tool. */
export function stipendexPrice(tool: string, args: Record<string, unknown>): bigint | undefined {
  if (tool === "web_search") return PRICES.web_search;
  if (tool === "confirmed_search") return PRICES.confirmed_search;
  if (tool === "surge_search") return PRICES.surge_search;
  if (tool === "deep_research") {
    const pages = Number(args.pages);
    const clamped = Number.isInteger(pages)
      ? Math.min(Math.max(pages, 1), DEEP_RESEARCH_MAX_PAGES)
      : 1;
    return PRICES.deep_research_per_page * BigInt(clamped);
  }
  return undefined;
}
