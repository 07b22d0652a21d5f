import { z } from "zod";
import type { Offer } from "../offer";
import { type ReadContext, readPaymentRequired } from "./payment-required";
import { readSettleResponse, type SettleResponse } from "./settlement";
import { assertInputSize, parseJsonText } from "./wire";

export const MCP_PAYMENT_META = "x402/payment";
export const MCP_PAYMENT_RESPONSE_META = "x402/payment-response";

/** The extension binding (MCP 2026-07-28) answers with a result type of its own. */
const paymentRequiredResultSchema = z.looseObject({
  resultType: z.literal("payment_required"),
  paymentRequired: z.unknown().optional(),
});

/** The x402 MCP transport spec: a tool error carrying the PaymentRequired. */
const toolErrorSchema = z.looseObject({
  isError: z.literal(true),
  structuredContent: z.unknown().optional(),
  content: z.unknown().optional(),
});

/** Content whose first item is text. */
const textFirstSchema = z.tuple(
  [z.looseObject({ type: z.literal("text"), text: z.string() })],
  z.unknown(),
);

/** Enough to tell a PaymentRequired from other JSON: both members present, whatever their value. */
const paymentRequiredLikeSchema = z.looseObject({ x402Version: z.unknown(), accepts: z.unknown() });

/** Where a settled tools/call result carries the settle response. */
const settledResultSchema = z.looseObject({
  _meta: z.looseObject({ [MCP_PAYMENT_RESPONSE_META]: z.unknown() }),
});

/** Find the PaymentRequired in a tools/call result, as the x402 MCP transport spec places it. */
function findPaymentRequired(result: unknown): unknown {
  const binding = paymentRequiredResultSchema.safeParse(result);
  if (binding.success) {
    const value = binding.data.paymentRequired ?? null;
    assertInputSize(JSON.stringify(value), "MCP paymentRequired");
    return value;
  }
  const toolError = toolErrorSchema.safeParse(result);
  if (!toolError.success) return undefined;
  const { structuredContent, content } = toolError.data;
  if (paymentRequiredLikeSchema.safeParse(structuredContent).success) {
    assertInputSize(JSON.stringify(structuredContent), "MCP structuredContent");
    return structuredContent;
  }
  const text = textFirstSchema.safeParse(content).data?.[0].text;
  // Other tool errors pass through; only text that names x402Version is read (and capped).
  if (text === undefined || !text.includes("x402Version")) return undefined;
  const parsed = parseJsonText(text, "MCP content[0].text");
  return paymentRequiredLikeSchema.safeParse(parsed).success ? parsed : undefined;
}

/**
 * Read an x402 payment request from an MCP tools/call `result`. Returns undefined for results
 * that are not one (successes, ordinary tool errors); throws a named error for a bad one.
 */
export function readMcpPaymentRequired(result: unknown, context: ReadContext): Offer | undefined {
  const paymentRequired = findPaymentRequired(result);
  if (paymentRequired === undefined) return undefined;
  return readPaymentRequired(paymentRequired, "mcp", context);
}

/** The settle result in `result._meta["x402/payment-response"]`, or undefined when absent. */
export function readMcpSettleResponse(result: unknown): SettleResponse | undefined {
  const value = settledResultSchema.safeParse(result).data?._meta[MCP_PAYMENT_RESPONSE_META];
  return value === undefined ? undefined : readSettleResponse(value);
}
