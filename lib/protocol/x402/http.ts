import { ProtocolError } from "../errors";
import type { Offer } from "../offer";
import { type HeaderReader, X402_HEADERS } from "./headers";
import { type ReadContext, readPaymentRequired } from "./payment-required";
import { decodeBase64Json, parseJsonText } from "./wire";

/**
 * Read an HTTP 402 answer: the v2 `PAYMENT-REQUIRED` header when present (v2 servers may put
 * anything in the body), else a v1 JSON body `{ x402Version: 1, accepts }`.
 */
export function readHttp402(
  response: { headers: HeaderReader; body: string },
  context: ReadContext,
): Offer {
  const header = response.headers.get(X402_HEADERS.paymentRequired);
  // An empty header is none, as @x402/core reads it: the v1 body then speaks.
  if (header !== null && header.trim() !== "") {
    const decoded = decodeBase64Json(header, `${X402_HEADERS.paymentRequired} header`);
    return readPaymentRequired(decoded, "http", context);
  }
  if (response.body.trim() === "") {
    throw new ProtocolError(
      "not-x402-payment-required",
      "402 response carries no x402 PaymentRequired",
    );
  }
  return readPaymentRequired(parseJsonText(response.body, "402 body"), "http", context);
}
