import { errors } from "jose";
import { errorText } from "../../errors";
import { isProtocolError, ProtocolError } from "../errors";

function claimValue(payload: Record<string, unknown>, claim: string): string {
  return JSON.stringify(payload[claim]) ?? "nothing";
}

function fromClaimFailure(error: errors.JWTClaimValidationFailed, what: string, typ: unknown) {
  const { claim, reason, payload } = error;
  if (reason === "missing") {
    return new ProtocolError("invalid-claims", `${what} has no "${claim}" claim`);
  }
  if (reason === "invalid") {
    return new ProtocolError(
      "invalid-claims",
      `${what} claim "${claim}" is invalid: ${error.message}`,
    );
  }
  const found = `found ${claimValue(payload, claim)}`;
  switch (claim) {
    case "typ":
      return new ProtocolError("wrong-typ", `${what} has typ ${JSON.stringify(typ) ?? "nothing"}`);
    case "iss":
      return new ProtocolError(
        "issuer-mismatch",
        `${what} "iss" is not the expected issuer (${found})`,
      );
    case "aud":
      return new ProtocolError(
        "audience-mismatch",
        `${what} "aud" is not the expected receiver (${found})`,
      );
    case "sub":
      return new ProtocolError(
        "subject-mismatch",
        `${what} "sub" is not the expected wallet (${found})`,
      );
    case "iat":
    case "nbf":
      return new ProtocolError("not-yet-valid", `${what} "${claim}" lies in the future (${found})`);
    default:
      return new ProtocolError(
        "invalid-claims",
        `${what} claim "${claim}" failed its check (${found})`,
      );
  }
}

/**
 * Turns whatever jose (or WebCrypto under it) threw into an envelope error
 * that names the object, the claim and the value; ours pass through.
 */
export function fromJoseError(error: unknown, what: string, typ?: unknown): ProtocolError {
  if (isProtocolError(error)) return error;
  const cause = { cause: error };
  if (error instanceof errors.JWTExpired) {
    const found = claimValue(error.payload, error.claim);
    return new ProtocolError("expired", `${what} expired: "${error.claim}" is ${found}`, cause);
  }
  if (error instanceof errors.JWTClaimValidationFailed) return fromClaimFailure(error, what, typ);
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new ProtocolError("bad-signature", `${what} signature does not verify`, cause);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return new ProtocolError("unsupported-algorithm", `${what}: ${error.message}`, cause);
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return new ProtocolError(
      "key-not-in-descriptor",
      `${what}: no listed key fits its kid and alg`,
      cause,
    );
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWKInvalid
  ) {
    return new ProtocolError("malformed-jws", `${what}: ${error.message}`, cause);
  }
  const detail = errorText(error);
  return new ProtocolError(
    "verification-failed",
    `${what} could not be verified: ${detail}`,
    cause,
  );
}
