import type { Offer } from "../offer";
import { isRecord } from "../rails/is-record";
import { type ReadContext, readPaymentRequired } from "./payment-required";
import { readSettleResponse, type SettleResponse } from "./settlement";
import { assertInputSize, parseJsonText } from "./wire";

export const MCP_PAYMENT_META = "x402/payment";
export const MCP_PAYMENT_RESPONSE_META = "x402/payment-response";

function looksLikePaymentRequired(value: unknown): boolean {
  return isRecord(value) && "x402Version" in value && "accepts" in value;
}

/** Find the PaymentRequired in a tools/call result, as the x402 MCP transport spec places it. */
function findPaymentRequired(result: Record<string, unknown>): unknown {
  // The extension binding (MCP 2026-07-28) answers with a result type of its own.
  if (result.resultType === "payment_required") {
    const value = result.paymentRequired ?? null;
    assertInputSize(JSON.stringify(value), "MCP paymentRequired");
    return value;
  }
  if (result.isError !== true) return undefined;
  const structured = result.structuredContent;
  if (looksLikePaymentRequired(structured)) {
    assertInputSize(JSON.stringify(structured), "MCP structuredContent");
    return structured;
  }
  const first = Array.isArray(result.content) ? result.content[0] : undefined;
  const text = isRecord(first) && first.type === "text" ? first.text : undefined;
  // Other tool errors pass through; only text that names x402Version is read (and capped).
  if (typeof text !== "string" || !text.includes("x402Version")) return undefined;
  const parsed = parseJsonText(text, "MCP content[0].text");
  return looksLikePaymentRequired(parsed) ? parsed : undefined;
}

/**
 * Read an x402 payment request from an MCP tools/call `result`. Returns undefined for results
 * that are not one (successes, ordinary tool errors); throws a named error for a bad one.
 */
export function readMcpPaymentRequired(result: unknown, context: ReadContext): Offer | undefined {
  if (!isRecord(result)) return undefined;
  const paymentRequired = findPaymentRequired(result);
  if (paymentRequired === undefined) return undefined;
  return readPaymentRequired(paymentRequired, "mcp", context);
}

/** The settle result in `result._meta["x402/payment-response"]`, or undefined when absent. */
export function readMcpSettleResponse(result: unknown): SettleResponse | undefined {
  const meta = isRecord(result) ? result._meta : undefined;
  const value = isRecord(meta) ? meta[MCP_PAYMENT_RESPONSE_META] : undefined;
  return value === undefined ? undefined : readSettleResponse(value);
}
