import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { x402ResourceServer } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { RailTemplate } from "../receiver/rail";
import { v2PaymentOption } from "../x402/server-v2";

export const X402_PAYMENT_META = "x402/payment";
export const X402_RESPONSE_META = "x402/payment-response";

/** The x402 MCP answer to an unpaid or refused call: `isError` with the PaymentRequired. */
async function paymentRequiredResult(
  server: x402ResourceServer,
  requirements: PaymentRequirements[],
  endpoint: string,
  error?: string,
): Promise<CallToolResult> {
  const paymentRequired = await server.createPaymentRequiredResponse(
    requirements,
    {
      url: endpoint,
      description: "x402_search on the demo MCP server",
      mimeType: "application/json",
    },
    error,
  );
  return {
    isError: true,
    structuredContent: paymentRequired as unknown as Record<string, unknown>,
    content: [{ type: "text", text: JSON.stringify(paymentRequired) }],
  };
}

/**
 * Runs `run` behind an x402 v2 payment carried in `_meta["x402/payment"]`, verified and settled
 * by the official resource server; the settle response goes to `_meta["x402/payment-response"]`.
 */
export async function callX402Tool(
  server: x402ResourceServer,
  rail: RailTemplate,
  price: bigint,
  endpoint: string,
  payment: unknown,
  run: () => CallToolResult,
): Promise<CallToolResult> {
  const requirements = await server.buildPaymentRequirementsFromOptions(
    [v2PaymentOption(rail, price)],
    {},
  );
  if (payment === undefined) return paymentRequiredResult(server, requirements, endpoint);
  const payload = payment as PaymentPayload;
  const matching =
    typeof payment === "object" && payment !== null
      ? server.findMatchingRequirements(requirements, payload)
      : undefined;
  if (!matching) {
    return paymentRequiredResult(server, requirements, endpoint, "payment_parse");
  }
  const verified = await server.verifyPayment(payload, matching);
  if (!verified.isValid) {
    return paymentRequiredResult(server, requirements, endpoint, verified.invalidReason);
  }
  const settled = await server.settlePayment(payload, matching);
  if (!settled.success) {
    return paymentRequiredResult(server, requirements, endpoint, settled.errorReason);
  }
  const result = run();
  return { ...result, _meta: { ...result._meta, [X402_RESPONSE_META]: settled } };
}
