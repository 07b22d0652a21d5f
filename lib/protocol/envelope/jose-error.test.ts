import { errors } from "jose";
import { describe, expect, it } from "vitest";
import {
  AudienceMismatchError,
  BadSignatureError,
  ExpiredError,
  InvalidClaimsError,
  KeyNotInDescriptorError,
  MalformedJwsError,
  NotYetValidError,
  ReplayedQuoteError,
  SubjectMismatchError,
  UnsupportedAlgorithmError,
  VerificationFailedError,
  WrongTypError,
} from "./errors";
import { fromJoseError } from "./jose-error";

const payload = { exp: 10, iat: 99, aud: "https://x.example", sub: "w" };
const claim = (name: string, reason = "check_failed") =>
  new errors.JWTClaimValidationFailed("x", payload, name, reason);

describe("fromJoseError", () => {
  it.each([
    [new errors.JWTExpired("x", payload, "exp", "check_failed"), ExpiredError, '"exp" is 10'],
    [claim("typ"), WrongTypError, '"stipendex-proof+jwt"'],
    [claim("aud"), AudienceMismatchError, '"https://x.example"'],
    [claim("sub"), SubjectMismatchError, '"w"'],
    [claim("iat"), NotYetValidError, "99"],
    [claim("jti", "missing"), InvalidClaimsError, '"jti"'],
    [claim("exp", "invalid"), InvalidClaimsError, '"exp"'],
    [claim("other"), InvalidClaimsError, "other"],
    [new errors.JWSSignatureVerificationFailed(), BadSignatureError, "signature"],
    [new errors.JOSEAlgNotAllowed("alg not allowed"), UnsupportedAlgorithmError, "alg"],
    [new errors.JWKSNoMatchingKey(), KeyNotInDescriptorError, "kid"],
    [new errors.JWSInvalid("bad"), MalformedJwsError, "bad"],
    [new TypeError("boom"), VerificationFailedError, "boom"],
  ])("maps %o", (error, ErrorClass, text) => {
    const mapped = fromJoseError(error, "Quote", "stipendex-proof+jwt");
    expect(mapped).toBeInstanceOf(ErrorClass);
    expect(mapped.message).toContain(text);
  });

  it("passes envelope errors through", () => {
    const own = new ReplayedQuoteError("again");
    expect(fromJoseError(own, "Quote")).toBe(own);
  });
});
