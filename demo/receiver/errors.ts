import { StipendexError } from "../../lib/errors";

/**
 * A payment the receiver refuses. `reason` is the short wire string put in the 402 body /
 * -32402 data as `error` (seed 004 spellings where one applies); `message` is the `detail`.
 */
export abstract class PaymentRefusedError extends StipendexError {
  abstract readonly reason: string;
}

export class PaymentParseError extends PaymentRefusedError {
  override name = "PaymentParseError";
  readonly reason = "payment_parse";
  constructor(detail: string, options?: { cause?: unknown }) {
    super("payment-parse", detail, options);
  }
}

export class InvalidProofError extends PaymentRefusedError {
  override name = "InvalidProofError";
  readonly reason = "invalid_proof";
  constructor(detail: string, options?: { cause?: unknown }) {
    super("invalid-proof", detail, options);
  }
}

export class UnknownQuoteError extends PaymentRefusedError {
  override name = "UnknownQuoteError";
  readonly reason = "unknown_quote";
  constructor(qh: string) {
    super("unknown-quote", `The Proof's qh ${qh} names no Quote this receiver issued`);
  }
}

export class QuoteExpiredError extends PaymentRefusedError {
  override name = "QuoteExpiredError";
  readonly reason = "quote_expired";
  constructor(detail: string) {
    super("quote-expired", detail);
  }
}

export class QuoteAlreadyUsedError extends PaymentRefusedError {
  override name = "QuoteAlreadyUsedError";
  readonly reason = "quote_already_used";
  constructor(detail: string) {
    super("quote-already-used", `${detail}; a Quote is accepted once`);
  }
}

export class ResourceMismatchError extends PaymentRefusedError {
  override name = "ResourceMismatchError";
  readonly reason = "resource_mismatch";
  constructor(expected: string, got: string) {
    super("resource-mismatch", `The Quote paid for ${got}, but this call is ${expected}`);
  }
}

export class RailMismatchError extends PaymentRefusedError {
  override name = "RailMismatchError";
  readonly reason = "rail_mismatch";
  constructor(detail: string) {
    super("rail-mismatch", detail);
  }
}

export class AmountMismatchError extends PaymentRefusedError {
  override name = "AmountMismatchError";
  readonly reason = "amount_mismatch";
  constructor(expected: bigint, got: string) {
    super(
      "amount-mismatch",
      `The authorization moves ${got} atomic units; the Quote asks for exactly ${expected}`,
    );
  }
}

export class InvalidReceiverError extends PaymentRefusedError {
  override name = "InvalidReceiverError";
  readonly reason = "FiatTokenV2_2: invalid receiver";
  constructor(expected: string, got: string) {
    super("invalid-receiver", `The authorization pays ${got}; the Quote's payTo is ${expected}`);
  }
}

export class InvalidAuthorizationSignatureError extends PaymentRefusedError {
  override name = "InvalidAuthorizationSignatureError";
  readonly reason = "FiatTokenV2_2: invalid signature";
  constructor(from: string) {
    super(
      "invalid-authorization-signature",
      `The EIP-3009 signature does not recover to ${from} under the token's EIP-712 domain`,
    );
  }
}

export class AuthorizationExpiredError extends PaymentRefusedError {
  override name = "AuthorizationExpiredError";
  readonly reason = "authorization expired";
  constructor(detail: string) {
    super("authorization-expired", detail);
  }
}

export class AuthorizationNotYetValidError extends PaymentRefusedError {
  override name = "AuthorizationNotYetValidError";
  readonly reason = "authorization not yet valid";
  constructor(validAfter: string, now: number) {
    super("authorization-not-yet-valid", `validAfter ${validAfter} is not before now (${now})`);
  }
}

export class NonceAlreadyUsedError extends PaymentRefusedError {
  override name = "NonceAlreadyUsedError";
  readonly reason = "nonce already used";
  constructor(from: string, nonce: string) {
    super("nonce-already-used", `EIP-3009 nonce ${nonce} of ${from} was already used on chain`);
  }
}

export class ConfirmationMissingError extends PaymentRefusedError {
  override name = "ConfirmationMissingError";
  readonly reason = "confirmation_required";
  constructor(detail: string) {
    super("confirmation-missing", detail);
  }
}

export class SettlementFailedError extends PaymentRefusedError {
  override name = "SettlementFailedError";
  /** The token's revert string verbatim (seed 004), or a generic reason. */
  readonly reason: string;
  constructor(reason: string, detail: string, options?: { cause?: unknown }) {
    super("settlement-failed", detail, options);
    this.reason = reason;
  }
}
