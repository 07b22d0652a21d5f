import type { Hex } from "viem";
import { isRecord } from "../rails/is-record";

/**
 * The x402 extension (`@x402/extensions` payment-identifier) by which a server has each payment
 * carry an id of the client's, to know a payment sent again from a new one; with
 * `info.required` true it refuses a payment without one ("payment_identifier_required").
 */
export const PAYMENT_IDENTIFIER = "payment-identifier";

/**
 * `extensions` as a v2 answer echoes them, with the payment's id in a declared
 * payment-identifier extension's `info.id`: "pay_" and the hex of its EIP-3009 nonce, the
 * extension's 16-128 characters of [A-Za-z0-9_-]. One per payment, and the same whenever
 * the same signed payment is sent again. Anything else is echoed as the server sent it.
 */
export function withPaymentIdentifier(
  extensions: Readonly<Record<string, unknown>>,
  nonce: Hex,
): Readonly<Record<string, unknown>> {
  const declared = extensions[PAYMENT_IDENTIFIER];
  if (!isRecord(declared) || !isRecord(declared.info)) return extensions;
  if (typeof declared.info.required !== "boolean") return extensions;
  const id = `pay_${nonce.slice(2)}`;
  return { ...extensions, [PAYMENT_IDENTIFIER]: { ...declared, info: { ...declared.info, id } } };
}
