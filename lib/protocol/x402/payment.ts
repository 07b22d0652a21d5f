import { z } from "zod";
import { ProtocolError } from "../errors";
import type { Offer, PaymentOption } from "../offer";
import type { ExactEvmPayload } from "../rails/eip3009";
import { X402_HEADERS } from "./headers";
import { MCP_PAYMENT_META } from "./mcp";
import { withPaymentIdentifier } from "./payment-identifier";
import { jsonObjectSchema } from "./schema";
import { encodeBase64Json } from "./wire";

export interface PaymentPayloadV1 {
  x402Version: 1;
  scheme: "exact";
  /** The requirement's network exactly as the server wrote it (a v1 name). */
  network: string;
  payload: ExactEvmPayload;
}

export interface PaymentPayloadV2 {
  x402Version: 2;
  resource?: Readonly<Record<string, unknown>>;
  /** The chosen requirement, verbatim. */
  accepted: Readonly<Record<string, unknown>>;
  payload: ExactEvmPayload;
  extensions?: Readonly<Record<string, unknown>>;
}

export type X402PaymentPayload = PaymentPayloadV1 | PaymentPayloadV2;

/** What a v2 answer echoes of the PaymentRequired: its `resource` and `extensions`, when objects. */
const echoedSchema = z.object({
  resource: jsonObjectSchema.optional().catch(undefined),
  extensions: jsonObjectSchema.optional().catch(undefined),
});

function notOffered(detail: string): ProtocolError {
  return new ProtocolError("option-not-offered", `cannot answer: ${detail}`);
}

/**
 * Wrap a signed EIP-3009 payload for the server, the way the official x402 client does: v1
 * names scheme and network; v2 echoes the requirement as `accepted` with the server's
 * `resource` and `extensions`, a payment identifier it declares filled in.
 */
export function buildPaymentPayload(
  offer: Offer,
  option: PaymentOption,
  payload: ExactEvmPayload,
): X402PaymentPayload {
  if (!offer.x402) throw notOffered("the offer is not an x402 offer");
  if (!offer.options.includes(option)) {
    throw notOffered("the chosen option is not one of this offer's options");
  }
  if (offer.x402.version === 1) {
    const network = z.string().safeParse(option.raw.network);
    if (!network.success) throw notOffered("the chosen requirement has no network string");
    return { x402Version: 1, scheme: "exact", network: network.data, payload };
  }
  const { resource, extensions } = echoedSchema.parse(offer.x402.paymentRequired);
  return {
    x402Version: 2,
    ...(resource ? { resource } : {}),
    accepted: option.raw,
    payload,
    ...(extensions
      ? { extensions: withPaymentIdentifier(extensions, payload.authorization.nonce) }
      : {}),
  };
}

/** The retry header: `X-PAYMENT` for v1, `PAYMENT-SIGNATURE` for v2, base64 of the JSON. */
export function paymentHeader(payment: X402PaymentPayload): { name: string; value: string } {
  const name = payment.x402Version === 1 ? X402_HEADERS.xPayment : X402_HEADERS.paymentSignature;
  return { name, value: encodeBase64Json(payment) };
}

/** The `_meta` entry an MCP tools/call retry carries. */
export function mcpPaymentMeta(payment: X402PaymentPayload): Record<string, X402PaymentPayload> {
  return { [MCP_PAYMENT_META]: payment };
}
