import { StipendexError } from "../../errors";

/** Base of the envelope errors: each subclass fixes its own kebab-case `code`. */
export abstract class EnvelopeError extends StipendexError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("envelope", message, options);
  }
}

/** The text is not a compact JWS this wallet can read (shape, base64url, header JSON). */
export class MalformedJwsError extends EnvelopeError {
  override name = "MalformedJwsError";
  override readonly code = "malformed-jws";
}

/** A JSON form is not `{ stipendex, jws }` with string members. */
export class MalformedJsonFormError extends EnvelopeError {
  override name = "MalformedJsonFormError";
  override readonly code = "malformed-json-form";
}

/** A `stipendex` marker names no object type/version this wallet knows. */
export class UnknownObjectTypeError extends EnvelopeError {
  override name = "UnknownObjectTypeError";
  override readonly code = "unknown-object-type";
}

/** A known object arrived where another type was expected. */
export class ObjectTypeMismatchError extends EnvelopeError {
  override name = "ObjectTypeMismatchError";
  override readonly code = "object-type-mismatch";
}

/** The signature does not verify under the key it names. */
export class BadSignatureError extends EnvelopeError {
  override name = "BadSignatureError";
  override readonly code = "bad-signature";
}

/** The `alg` is not one this object may use. */
export class UnsupportedAlgorithmError extends EnvelopeError {
  override name = "UnsupportedAlgorithmError";
  override readonly code = "unsupported-algorithm";
}

/** The protected header's `typ` is not the expected one. */
export class WrongTypError extends EnvelopeError {
  override name = "WrongTypError";
  override readonly code = "wrong-typ";
}

/** `exp` has passed (or `iat` is older than allowed). */
export class ExpiredError extends EnvelopeError {
  override name = "ExpiredError";
  override readonly code = "expired";
}

/** `iat` or `nbf` lies in the future beyond the clock tolerance. */
export class NotYetValidError extends EnvelopeError {
  override name = "NotYetValidError";
  override readonly code = "not-yet-valid";
}

/** A Quote's `exp - iat` is outside 30–600 s. */
export class LifetimeOutOfRangeError extends EnvelopeError {
  override name = "LifetimeOutOfRangeError";
  override readonly code = "lifetime-out-of-range";
}

/** A claim is missing or has the wrong shape. */
export class InvalidClaimsError extends EnvelopeError {
  override name = "InvalidClaimsError";
  override readonly code = "invalid-claims";
}

/** An amount is not a decimal string of atomic units. */
export class AmountNotIntegerError extends EnvelopeError {
  override name = "AmountNotIntegerError";
  override readonly code = "amount-not-integer";
}

/** An amount is below zero. */
export class NegativeAmountError extends EnvelopeError {
  override name = "NegativeAmountError";
  override readonly code = "negative-amount";
}

/** An amount does not fit in uint256. */
export class AmountOutOfRangeError extends EnvelopeError {
  override name = "AmountOutOfRangeError";
  override readonly code = "amount-out-of-range";
}

/** `iss` is not who must have issued the object. */
export class IssuerMismatchError extends EnvelopeError {
  override name = "IssuerMismatchError";
  override readonly code = "issuer-mismatch";
}

/** `aud` is not the receiver this object is for. */
export class AudienceMismatchError extends EnvelopeError {
  override name = "AudienceMismatchError";
  override readonly code = "audience-mismatch";
}

/** A Receipt's `sub` is not the paying wallet. */
export class SubjectMismatchError extends EnvelopeError {
  override name = "SubjectMismatchError";
  override readonly code = "subject-mismatch";
}

/** A wallet object's `kid` is not its header key's RFC 7638 thumbprint. */
export class KidMismatchError extends EnvelopeError {
  override name = "KidMismatchError";
  override readonly code = "kid-mismatch";
}

/** The `kid` names no key of the receiver's descriptor. */
export class KeyNotInDescriptorError extends EnvelopeError {
  override name = "KeyNotInDescriptorError";
  override readonly code = "key-not-in-descriptor";
}

/** A receiver descriptor does not have the §4 shape. */
export class InvalidDescriptorError extends EnvelopeError {
  override name = "InvalidDescriptorError";
  override readonly code = "invalid-descriptor";
}

/** A descriptor's `id` is not the origin it was fetched from. */
export class DescriptorIdMismatchError extends EnvelopeError {
  override name = "DescriptorIdMismatchError";
  override readonly code = "descriptor-id-mismatch";
}

/** A receiver id is not an https origin (or http on loopback). */
export class InsecureReceiverIdError extends EnvelopeError {
  override name = "InsecureReceiverIdError";
  override readonly code = "insecure-receiver-id";
}

/** A registry-signed descriptor names no trusted registry key. */
export class UntrustedRegistryKeyError extends EnvelopeError {
  override name = "UntrustedRegistryKeyError";
  override readonly code = "untrusted-registry-key";
}

/** A Quote rail's network/asset/payTo is not listed by the descriptor. */
export class RailNotInDescriptorError extends EnvelopeError {
  override name = "RailNotInDescriptorError";
  override readonly code = "rail-not-in-descriptor";
}

/** A stablecoin rail's amount disagrees with the display `total`. */
export class TotalMismatchError extends EnvelopeError {
  override name = "TotalMismatchError";
  override readonly code = "total-mismatch";
}

/** A Quote's `resource` is not the request the client made. */
export class ResourceMismatchError extends EnvelopeError {
  override name = "ResourceMismatchError";
  override readonly code = "resource-mismatch";
}

/** A Quote's resource kind does not fit the transport it came on. */
export class TransportMismatchError extends EnvelopeError {
  override name = "TransportMismatchError";
  override readonly code = "transport-mismatch";
}

/** A Proof's `rail` is not a verbatim copy of a Quote rail. */
export class ProofRailMismatchError extends EnvelopeError {
  override name = "ProofRailMismatchError";
  override readonly code = "proof-rail-mismatch";
}

/** The authorization's `to`/`value` differ from the rail's `payTo`/`amount`. */
export class PaymentRailMismatchError extends EnvelopeError {
  override name = "PaymentRailMismatchError";
  override readonly code = "payment-rail-mismatch";
}

/** The EIP-3009 time window is not acceptable for this Proof. */
export class AuthorizationWindowError extends EnvelopeError {
  override name = "AuthorizationWindowError";
  override readonly code = "authorization-window";
}

/** A `qh` is not the hash of the Quote it should bind. */
export class QuoteHashMismatchError extends EnvelopeError {
  override name = "QuoteHashMismatchError";
  override readonly code = "quote-hash-mismatch";
}

/** A Receipt's `ph` is not the hash of the Proof sent. */
export class ProofHashMismatchError extends EnvelopeError {
  override name = "ProofHashMismatchError";
  override readonly code = "proof-hash-mismatch";
}

/** A Proof's `ch` is not the hash of its embedded Confirmation. */
export class ConfirmationHashMismatchError extends EnvelopeError {
  override name = "ConfirmationHashMismatchError";
  override readonly code = "confirmation-hash-mismatch";
}

/** A profile L2 Quote was paid without an embedded Confirmation. */
export class ConfirmationRequiredError extends EnvelopeError {
  override name = "ConfirmationRequiredError";
  override readonly code = "confirmation-required";
}

/** The embedded Confirmation says `decline`. */
export class ConfirmationDeclinedError extends EnvelopeError {
  override name = "ConfirmationDeclinedError";
  override readonly code = "confirmation-declined";
}

/** Objects that must come from one wallet were signed by different keys. */
export class WalletMismatchError extends EnvelopeError {
  override name = "WalletMismatchError";
  override readonly code = "wallet-mismatch";
}

/** A Quote `jti` was already used. */
export class ReplayedQuoteError extends EnvelopeError {
  override name = "ReplayedQuoteError";
  override readonly code = "replayed-quote";
}

/** A Receipt's settlement does not match the payment made. */
export class SettlementMismatchError extends EnvelopeError {
  override name = "SettlementMismatchError";
  override readonly code = "settlement-mismatch";
}

/** Verification failed for a reason no narrower class names. */
export class VerificationFailedError extends EnvelopeError {
  override name = "VerificationFailedError";
  override readonly code = "verification-failed";
}
