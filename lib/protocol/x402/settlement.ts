import { z } from "zod";
import { type HeaderReader, X402_HEADERS } from "./headers";
import { readX402 } from "./schema";
import { decodeBase64Json } from "./wire";

/** Absent or null: servers serialising unset fields as null (the Python middleware) mean absent. */
function unset<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value) => value ?? undefined);
}

const settleResponseSchema = z.object({
  success: z.boolean(),
  transaction: z.string().max(200),
  network: z.string().max(100),
  payer: unset(z.string().max(200)),
  errorReason: unset(z.string().max(500)),
  errorMessage: unset(z.string().max(2000)),
  amount: unset(z.string().regex(/^[0-9]{1,78}$/)),
});

/** A facilitator's settle result as the server relays it (v1 and v2 share the shape). */
export type SettleResponse = z.infer<typeof settleResponseSchema>;

export function readSettleResponse(value: unknown): SettleResponse {
  return readX402(settleResponseSchema, value, "SettleResponse", "malformed-settle-response");
}

/** `PAYMENT-RESPONSE` (v2) or `X-PAYMENT-RESPONSE` (v1), or undefined when neither is sent. */
export function readSettleResponseHeaders(headers: HeaderReader): SettleResponse | undefined {
  for (const name of [X402_HEADERS.paymentResponse, X402_HEADERS.xPaymentResponse]) {
    const header = headers.get(name);
    if (header !== null) return readSettleResponse(decodeBase64Json(header, `${name} header`));
  }
  return undefined;
}
