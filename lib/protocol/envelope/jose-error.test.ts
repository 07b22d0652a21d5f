import { errors } from "jose";
import { describe, expect, it } from "vitest";
import { ProtocolError, type ProtocolErrorCode } from "../errors";
import { fromJoseError } from "./jose-error";

const payload = { exp: 10, iat: 99, aud: "https://x.example", sub: "w" };
const claim = (name: string, reason = "check_failed") =>
  new errors.JWTClaimValidationFailed("x", payload, name, reason);

describe("fromJoseError", () => {
  it.each<[unknown, ProtocolErrorCode, string]>([
    [new errors.JWTExpired("x", payload, "exp", "check_failed"), "expired", '"exp" is 10'],
    [claim("typ"), "wrong-typ", '"stipendex-proof+jwt"'],
    [claim("aud"), "audience-mismatch", '"https://x.example"'],
    [claim("sub"), "subject-mismatch", '"w"'],
    [claim("iat"), "not-yet-valid", "99"],
    [claim("jti", "missing"), "invalid-claims", '"jti"'],
    [claim("exp", "invalid"), "invalid-claims", '"exp"'],
    [claim("other"), "invalid-claims", "other"],
    [new errors.JWSSignatureVerificationFailed(), "bad-signature", "signature"],
    [new errors.JOSEAlgNotAllowed("alg not allowed"), "unsupported-algorithm", "alg"],
    [new errors.JWKSNoMatchingKey(), "key-not-in-descriptor", "kid"],
    [new errors.JWSInvalid("bad"), "malformed-jws", "bad"],
    [new TypeError("boom"), "verification-failed", "boom"],
  ])("maps %o", (error, code, text) => {
    const mapped = fromJoseError(error, "Quote", "stipendex-proof+jwt");
    expect(mapped).toMatchObject({ name: "ProtocolError", code });
    expect(mapped.message).toContain(text);
  });

  it("passes protocol errors through", () => {
    const own = new ProtocolError("replayed-quote", "again");
    expect(fromJoseError(own, "Quote")).toBe(own);
  });
});
