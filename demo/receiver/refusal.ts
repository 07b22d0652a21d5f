import { decodeJwt } from "jose";
import { StipendexError } from "../../lib/errors";
import {
  AuthorizationWindowError,
  ExpiredError,
  PaymentRailMismatchError,
  ProofRailMismatchError,
  QuoteHashMismatchError,
  ReplayedQuoteError,
} from "../../lib/protocol/envelope/errors";
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
  if (error instanceof ReplayedQuoteError) return new QuoteAlreadyUsedError(error.message);
  if (error instanceof ExpiredError) return new QuoteExpiredError(error.message);
  if (error instanceof AuthorizationWindowError)
    return new AuthorizationExpiredError(error.message);
  if (error instanceof PaymentRailMismatchError) {
    const paid = paidTo(proofJws);
    if (paid && paid.to.toLowerCase() !== rail.payTo.toLowerCase()) {
      return new InvalidReceiverError(rail.payTo, paid.to);
    }
    return new AmountMismatchError(BigInt(rail.amount), paid?.value ?? "?");
  }
  if (error instanceof ProofRailMismatchError) return new RailMismatchError(error.message);
  if (error.code.startsWith("confirmation")) return new ConfirmationMissingError(error.message);
  if (error instanceof QuoteHashMismatchError) return new InvalidProofError(error.message, options);
  return new InvalidProofError(`${error.code}: ${error.message}`, options);
}
