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
  _meta: z.unknown().optional(),
});

/** Content whose first item is text. */
const textFirstSchema = z.tuple(
  [z.looseObject({ type: z.literal("text"), text: z.string() })],
  z.unknown(),
);

/** Enough to tell a PaymentRequired from other JSON: both members present, whatever their value. */
const paymentRequiredLikeSchema = z.looseObject({ x402Version: z.unknown(), accepts: z.unknown() });

/** The official server's wrapper (`{"x402/error": {code: 402, message, data}}`), also used in `_meta`. */
const X402_ERROR = "x402/error";
const wrapperSchema = z.looseObject({ [X402_ERROR]: z.unknown() });
const wrappedSchema = z.looseObject({ data: z.unknown() });

/** `value` if it is a PaymentRequired, or the one its x402/error wrapper holds (as `data`, or itself). */
function unwrapped(value: unknown): unknown {
  if (paymentRequiredLikeSchema.safeParse(value).success) return value;
  const wrapped = wrapperSchema.safeParse(value).data?.[X402_ERROR];
  const inner = wrappedSchema.safeParse(wrapped).data?.data;
  if (paymentRequiredLikeSchema.safeParse(inner).success) return inner;
  return paymentRequiredLikeSchema.safeParse(wrapped).success ? wrapped : undefined;
}

/** Where a settled tools/call result carries the settle response. */
const settledResultSchema = z.looseObject({
  _meta: z.looseObject({ [MCP_PAYMENT_RESPONSE_META]: z.unknown() }),
});

/** A PaymentRequired found in a tools/call result; `inText` when only its first text block held it. */
interface FoundPaymentRequired {
  value: unknown;
  inText?: true;
}

/**
 * Find the PaymentRequired in a tools/call result, wherever servers put it: the transport
 * spec's structuredContent, or the first text block as JSON (the official server's), each
 * bare or in its `x402/error` wrapper; or `_meta["x402/error"]`.
 */
function findPaymentRequired(result: unknown): FoundPaymentRequired | undefined {
  const binding = paymentRequiredResultSchema.safeParse(result);
  if (binding.success) {
    const value = binding.data.paymentRequired ?? null;
    assertInputSize(JSON.stringify(value), "MCP paymentRequired");
    return { value };
  }
  const toolError = toolErrorSchema.safeParse(result);
  if (!toolError.success) return undefined;
  const { structuredContent, content, _meta } = toolError.data;
  for (const [value, where] of [
    [structuredContent, "MCP structuredContent"],
    [_meta, "MCP _meta"],
  ] as const) {
    const found = unwrapped(value);
    if (found !== undefined) {
      assertInputSize(JSON.stringify(found), where);
      return { value: found };
    }
  }
  const text = textFirstSchema.safeParse(content).data?.[0].text;
  // Other tool errors pass through; only text that names x402Version is read (and capped).
  if (text === undefined || !text.includes("x402Version")) return undefined;
  const found = unwrapped(parseJsonText(text, "MCP content[0].text"));
  return found === undefined ? undefined : { value: found, inText: true };
}

/**
 * Read an x402 payment request from an MCP tools/call `result`. Returns undefined for results
 * that are not one (successes, ordinary tool errors); throws a named error for a bad one.
 */
export function readMcpPaymentRequired(result: unknown, context: ReadContext): Offer | undefined {
  const found = findPaymentRequired(result);
  if (found === undefined) return undefined;
  const offer = readPaymentRequired(found.value, "mcp", context);
  return found.inText ? { ...offer, priceInToolText: true } : offer;
}

/** The settle result in `result._meta["x402/payment-response"]`, or undefined when absent. */
export function readMcpSettleResponse(result: unknown): SettleResponse | undefined {
  const value = settledResultSchema.safeParse(result).data?._meta[MCP_PAYMENT_RESPONSE_META];
  return value === undefined ? undefined : readSettleResponse(value);
}
