import { errors } from "jose";
import { StipendexError } from "../../errors";
import {
  AudienceMismatchError,
  BadSignatureError,
  ExpiredError,
  InvalidClaimsError,
  IssuerMismatchError,
  KeyNotInDescriptorError,
  MalformedJwsError,
  NotYetValidError,
  SubjectMismatchError,
  UnsupportedAlgorithmError,
  VerificationFailedError,
  WrongTypError,
} from "./errors";

function claimValue(payload: Record<string, unknown>, claim: string): string {
  return JSON.stringify(payload[claim]) ?? "nothing";
}

function fromClaimFailure(error: errors.JWTClaimValidationFailed, what: string, typ: unknown) {
  const { claim, reason, payload } = error;
  if (reason === "missing") return new InvalidClaimsError(`${what} has no "${claim}" claim`);
  if (reason === "invalid") {
    return new InvalidClaimsError(`${what} claim "${claim}" is invalid: ${error.message}`);
  }
  const found = `found ${claimValue(payload, claim)}`;
  switch (claim) {
    case "typ":
      return new WrongTypError(`${what} has typ ${JSON.stringify(typ) ?? "nothing"}`);
    case "iss":
      return new IssuerMismatchError(`${what} "iss" is not the expected issuer (${found})`);
    case "aud":
      return new AudienceMismatchError(`${what} "aud" is not the expected receiver (${found})`);
    case "sub":
      return new SubjectMismatchError(`${what} "sub" is not the expected wallet (${found})`);
    case "iat":
    case "nbf":
      return new NotYetValidError(`${what} "${claim}" lies in the future (${found})`);
    default:
      return new InvalidClaimsError(`${what} claim "${claim}" failed its check (${found})`);
  }
}

/**
 * Turns whatever jose (or WebCrypto under it) threw into an envelope error
 * that names the object, the claim and the value; ours pass through.
 */
export function fromJoseError(error: unknown, what: string, typ?: unknown): StipendexError {
  if (error instanceof StipendexError) return error;
  const cause = { cause: error };
  if (error instanceof errors.JWTExpired) {
    const found = claimValue(error.payload, error.claim);
    return new ExpiredError(`${what} expired: "${error.claim}" is ${found}`, cause);
  }
  if (error instanceof errors.JWTClaimValidationFailed) return fromClaimFailure(error, what, typ);
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new BadSignatureError(`${what} signature does not verify`, cause);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return new UnsupportedAlgorithmError(`${what}: ${error.message}`, cause);
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return new KeyNotInDescriptorError(`${what}: no listed key fits its kid and alg`, cause);
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWKInvalid
  ) {
    return new MalformedJwsError(`${what}: ${error.message}`, cause);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new VerificationFailedError(`${what} could not be verified: ${detail}`, cause);
}
