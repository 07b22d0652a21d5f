import express, { type Request, type Response, type Router } from "express";
import type { RailTemplate } from "../receiver/rail";
import { search } from "../receiver/search";

/** Where the seed-004-shaped MCP server answers, on the x402 v1 server. */
export const SEED_402_PATH = "/mcp";
export const SEED_402_TOOL = "verify_agent";

/** The facilitator's answers this server reads (x402 v1 `/verify` and `/settle`). */
interface Verified {
  isValid: boolean;
  invalidReason?: string;
}
interface Settled {
  success: boolean;
  errorReason?: string;
}

/**
 * An MCP server written from seed 004 as printed: a paid `tools/call` is
 * answered with HTTP 402 on the JSON-RPC POST, its body an `accepts[]` of the
 * seed's exact fields (no x402Version, no maxTimeoutSeconds, the asset by its
 * symbol); the retry carries `X-PAYMENT`, which the official v1 facilitator
 * verifies and settles before the tool runs. Stateless JSON answers.
 */
export function seed402Router(options: {
  rail: RailTemplate;
  price: bigint;
  facilitatorUrl: string;
}): Router {
  const { rail, price, facilitatorUrl } = options;
  const offered = {
    scheme: "exact",
    network: "base-sepolia",
    amount: price.toString(),
    asset: rail.symbol,
    payTo: rail.payTo,
    extra: { name: rail.eip712.name, version: rail.eip712.version },
  };
  // What the facilitator checks the payment against: the full v1 requirement behind the seed's fields.
  const requirement = (resource: string) => ({
    scheme: "exact",
    network: "base-sepolia",
    maxAmountRequired: price.toString(),
    resource,
    description: "verify_agent (seed 004 shape)",
    mimeType: "application/json",
    payTo: rail.payTo,
    maxTimeoutSeconds: rail.maxTimeoutSeconds,
    asset: rail.asset,
    extra: offered.extra,
  });
  const facilitator = async <T>(path: string, paymentPayload: unknown, resource: string) => {
    const response = await fetch(`${facilitatorUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ paymentPayload, paymentRequirements: requirement(resource) }),
    });
    return { body: (await response.json()) as T };
  };
  const priced = (res: Response, error?: string) =>
    res.status(402).json({ accepts: [offered], ...(error ? { error } : {}) });

  const router = express.Router();
  router.use(SEED_402_PATH, express.json({ limit: "64kb" }));
  router.get(SEED_402_PATH, (_req, res) => {
    res.status(405).set("allow", "POST").end();
  });
  router.post(SEED_402_PATH, async (req: Request, res: Response) => {
    const message = req.body as { id?: unknown; method?: string; params?: Record<string, unknown> };
    const answer = (result: unknown) => res.json({ jsonrpc: "2.0", id: message.id, result });
    if (message.id === undefined) return void res.status(202).end();
    if (message.method === "initialize") {
      return void answer({
        protocolVersion: message.params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "seed-004-demo", version: "0.1.0" },
      });
    }
    if (message.method === "tools/list") {
      return void answer({
        tools: [
          {
            name: SEED_402_TOOL,
            description: "Paid per call with x402, as seed 004 describes",
            inputSchema: { type: "object", properties: { agent: { type: "string" } } },
          },
        ],
      });
    }
    if (message.method !== "tools/call" || message.params?.name !== SEED_402_TOOL) {
      return void res.json({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32601, message: `Unknown method or tool: ${message.method}` },
      });
    }
    const header = req.get("x-payment");
    if (!header) return void priced(res);
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
    } catch {
      return void priced(res, "payment_parse");
    }
    const resource = `${req.protocol}://${req.get("host")}${req.originalUrl}`;
    const verified = await facilitator<Verified>("/verify", payload, resource);
    if (!verified.body.isValid) return void priced(res, verified.body.invalidReason);
    const settled = await facilitator<Settled>("/settle", payload, resource);
    if (!settled.body.success) return void priced(res, settled.body.errorReason);
    const agent = String(
      (message.params.arguments as { agent?: unknown } | undefined)?.agent ?? "",
    );
    res.set("X-PAYMENT-RESPONSE", Buffer.from(JSON.stringify(settled.body)).toString("base64"));
    answer({ content: [{ type: "text", text: JSON.stringify(search(agent || "agent")) }] });
  });
  return router;
}
