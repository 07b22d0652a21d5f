import { decodeJwt } from "jose";
import { StipendexError } from "../../lib/errors";
import { isProtocolError } from "../../lib/protocol/errors";
import {
  AmountMismatchError,
  AuthorizationExpiredError,
  ConfirmationMissingError,
  InvalidProofError,
  InvalidReceiverError,
  PaymentRefusedError,
  QuoteAlreadyUsedError,
  QuoteExpiredError,
  RailMismatchError,
} from "./errors";

function paidTo(proofJws: string): { to: string; value: string } | undefined {
  const payment = decodeJwt(proofJws).payment as
    | { authorization?: { to?: unknown; value?: unknown } }
    | undefined;
  const { to, value } = payment?.authorization ?? {};
  return typeof to === "string" && typeof value === "string" ? { to, value } : undefined;
}

/**
 * Turns what lib/protocol's verifyProof throws into the receiver's refusal with its wire
 * reason. Only called after the Proof's signature verified, so reading its claims is safe.
 */
export function toRefusal(
  error: unknown,
  proofJws: string,
  rail: { payTo: string; amount: string },
): PaymentRefusedError {
  if (error instanceof PaymentRefusedError) return error;
  if (!(error instanceof StipendexError)) throw error;
  const options = { cause: error };
  if (isProtocolError(error, "replayed-quote")) return new QuoteAlreadyUsedError(error.message);
  if (isProtocolError(error, "expired")) return new QuoteExpiredError(error.message);
  if (isProtocolError(error, "authorization-window"))
    return new AuthorizationExpiredError(error.message);
  if (isProtocolError(error, "payment-rail-mismatch")) {
    const paid = paidTo(proofJws);
    if (paid && paid.to.toLowerCase() !== rail.payTo.toLowerCase()) {
      return new InvalidReceiverError(rail.payTo, paid.to);
    }
    return new AmountMismatchError(BigInt(rail.amount), paid?.value ?? "?");
  }
  if (isProtocolError(error, "proof-rail-mismatch")) return new RailMismatchError(error.message);
  if (error.code.startsWith("confirmation")) return new ConfirmationMissingError(error.message);
  if (isProtocolError(error, "quote-hash-mismatch"))
    return new InvalidProofError(error.message, options);
  return new InvalidProofError(`${error.code}: ${error.message}`, options);
}
