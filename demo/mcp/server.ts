import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { x402ResourceServer } from "@x402/core/server";
import { argsHash, canonicalize, sha256Base64url } from "../../lib/protocol/canonical-json";
import { verifyConfirmation } from "../../lib/protocol/envelope/confirmation";
import { readJsonForm, toJsonForm } from "../../lib/protocol/envelope/json-form";
import { formatAmount } from "../../lib/protocol/rails/amount";
import { PaymentParseError, PaymentRefusedError } from "../receiver/errors";
import type { IssuedQuote } from "../receiver/quote-book";
import type { RailTemplate } from "../receiver/rail";
import type { StipendexReceiver } from "../receiver/receiver";
import { search } from "../receiver/search";
import { PRICES, stipendexPrice, toolList } from "./tools";
import { callX402Tool, X402_PAYMENT_META } from "./x402-tool";

export const PAYMENT_REQUIRED_CODE = -32402;
export const PAYMENT_META = "stipendex/payment";
export const RECEIPT_META = "stipendex/receipt";
export const QUOTE_META = "stipendex/quote";

export interface McpServerOptions {
  receiver: StipendexReceiver;
  x402: x402ResourceServer;
  rail: RailTemplate;
  /** The exact endpoint URL clients POST to: what `resource.mcp.server` binds Quotes to. */
  endpoint: string;
  /**
   * The endpoint answers POSTs with SSE, so confirmed_search asks on the
   * call's own stream; a JSON endpoint asks on the session's standalone
   * GET stream instead.
   */
  callStreams: boolean;
  /**
   * Each tools/call's stream is closed after its priming event, before the
   * tool answers (the transport must have an event store): the answer comes
   * on the stream the client resumes by GET.
   */
  pollCalls?: boolean;
  /** Confirmation hash by Quote hash, accepted by elicitation; shared by all sessions. */
  confirmations: Map<string, string>;
  /**
   * How long confirmed_search waits for the confirmation it elicits before it
   * gives up and cancels the elicitation (the SDK's 60 s when unset).
   */
  confirmWithinMs?: number;
}

/** How long a polled call runs before it answers (see pollCalls). */
const POLL_CALL_MS = 50;

function runTool(name: string, args: Record<string, unknown>): CallToolResult {
  if (name === "server_time") {
    return { content: [{ type: "text", text: new Date().toISOString() }] };
  }
  const found = search(String(args.query ?? ""), name === "deep_research" ? 4 : 3);
  return { content: [{ type: "text", text: JSON.stringify(found) }], structuredContent: found };
}

function paymentRequired(quote: IssuedQuote, refusal?: PaymentRefusedError): McpError {
  const data = refusal
    ? { error: refusal.reason, detail: refusal.message, quote: toJsonForm("quote", quote.jws) }
    : { quote: toJsonForm("quote", quote.jws) };
  return new McpError(PAYMENT_REQUIRED_CODE, "Payment required", data);
}

/** One low-level MCP Server per session (McpServer would lose -32402's code and data). */
export function createPaidMcpServer(options: McpServerOptions): Server {
  const { receiver, endpoint } = options;
  const server = new Server(
    { name: "stipendex-demo-mcp", version: "0.1.0" },
    {
      capabilities: { tools: {}, experimental: { "stipendex/payments": { version: "0.1" } } },
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolList(),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (options.pollCalls) {
      extra.closeSSEStream?.();
      // A call long enough for the client to notice the stream closed before its answer.
      await new Promise((resolve) => setTimeout(resolve, POLL_CALL_MS));
    }
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const meta = request.params._meta ?? {};
    if (!toolList().some((tool) => tool.name === name)) {
      throw new McpError(-32602, `Unknown tool: ${name}`);
    }
    if (name === "x402_search") {
      return callX402Tool(
        options.x402,
        options.rail,
        PRICES.x402_search,
        endpoint,
        meta[X402_PAYMENT_META],
        () => runTool(name, args),
      );
    }
    const price = stipendexPrice(name, args);
    if (price === undefined) return runTool(name, args);

    const resource = { mcp: { server: endpoint, tool: name, argsHash: await argsHash(args) } };
    const description = `${name} for "${String(args.query ?? "").slice(0, 80)}"`;
    // deep_research asks for profile L2: its Proof must embed the wallet's Confirmation.
    const profile = name === "deep_research" ? ({ profile: "L2" } as const) : {};
    const issue = () => receiver.quotes.issue({ resource, description, amount: price, ...profile });
    const payment = meta[PAYMENT_META];
    const elicit = name === "confirmed_search";

    if (payment === undefined) {
      const quote = await issue();
      if (!elicit) throw paymentRequired(quote);
      const total = `${formatAmount(price, options.rail.decimals)} USD`;
      if (!server.getClientCapabilities()?.elicitation?.form) {
        throw new McpError(
          -32600,
          `${name} asks for a confirmation by form elicitation, which this client did not declare`,
        );
      }
      // elicitInput checks the client's capability and the answer against requestedSchema.
      const answer = await server.elicitInput(
        {
          mode: "form",
          _meta: { [QUOTE_META]: toJsonForm("quote", quote.jws) },
          message: `${description} — ${total}`,
          requestedSchema: {
            type: "object",
            properties: { confirmation: { type: "string", description: "Confirmation JWS" } },
            required: ["confirmation"],
          },
        },
        {
          ...(options.callStreams ? { relatedRequestId: extra.requestId } : {}),
          ...(options.confirmWithinMs === undefined ? {} : { timeout: options.confirmWithinMs }),
        },
      );
      if (answer.action !== "accept") {
        throw new McpError(PAYMENT_REQUIRED_CODE, "Payment required", {
          error: "confirmation_declined",
          detail: `The payment confirmation was answered "${answer.action}"`,
        });
      }
      try {
        const confirmation = await verifyConfirmation(answer.content?.confirmation, {
          receiverId: receiver.id,
          quoteHash: quote.hash,
        });
        if (confirmation.claims.decision !== "approve") {
          throw new PaymentParseError(`The Confirmation says ${confirmation.claims.decision}`);
        }
        options.confirmations.set(quote.hash, confirmation.hash);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        throw new McpError(PAYMENT_REQUIRED_CODE, "Payment required", {
          error: "invalid_confirmation",
          detail,
          quote: toJsonForm("quote", (await issue()).jws),
        });
      }
      throw paymentRequired(quote);
    }

    try {
      const redeemed = await receiver.redeem(
        readProof(payment),
        resource,
        elicit ? { confirmations: options.confirmations } : {},
      );
      const result = runTool(name, args);
      const receipt = await receiver.receipt(
        redeemed,
        await sha256Base64url(canonicalize(result.content)),
      );
      return { ...result, _meta: { [RECEIPT_META]: toJsonForm("receipt", receipt) } };
    } catch (error) {
      if (!(error instanceof PaymentRefusedError)) throw error;
      throw paymentRequired(await issue(), error);
    }
  });
  return server;
}

function readProof(payment: unknown): string {
  try {
    return readJsonForm(payment, "proof");
  } catch (cause) {
    throw new PaymentParseError(
      `_meta["${PAYMENT_META}"] is not a Proof JSON form: ${cause instanceof Error ? cause.message : cause}`,
      { cause },
    );
  }
}
