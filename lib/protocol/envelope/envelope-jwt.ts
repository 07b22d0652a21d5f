import {
  decodeProtectedHeader,
  type JWK,
  type JWTVerifyGetKey,
  jwtVerify,
  type ProtectedHeaderParameters,
  SignJWT,
} from "jose";
import type { z } from "zod";
import { ProtocolError } from "../errors";
import { readCompact } from "./compact";
import { fromJoseError } from "./jose-error";
import { objectHash } from "./object-hash";
import { type SignedType, typHeader, versionTag } from "./object-type";
import { parseClaims } from "./parse-claims";

/** Receivers allow 5 s of clock skew (§7); the wallet uses the same margin. */
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 5;

export interface Verified<C> {
  /** The compact JWS exactly as received. */
  jws: string;
  /** objectHash(jws): what `qh` / `ph` / `ch` must equal. */
  hash: string;
  header: ProtectedHeaderParameters;
  claims: C;
}

export interface SignHeader {
  alg: string;
  kid: string;
  jwk?: JWK;
}

/** Signs claims (plus the `stipendex` marker) as a compact JWS with the object's typ. */
export function signEnvelope(
  type: SignedType,
  claims: Record<string, unknown>,
  header: SignHeader,
  key: CryptoKey | JWK,
): Promise<string> {
  return new SignJWT({ ...claims, stipendex: versionTag(type) })
    .setProtectedHeader({ ...header, typ: typHeader(type) })
    .sign(key);
}

/** Decodes the protected header of a compact JWS without trusting it. */
export function peekHeader(compact: string, what: string): ProtectedHeaderParameters {
  try {
    return decodeProtectedHeader(compact);
  } catch (cause) {
    throw new ProtocolError("malformed-jws", `${what} header is not a JSON object`, { cause });
  }
}

export interface EnvelopeCheck<S extends z.ZodType> {
  type: SignedType;
  schema: S;
  key: CryptoKey | JWK | JWTVerifyGetKey;
  algorithms: string[];
  issuer?: string;
  audience?: string | string[];
  subject?: string;
  /** Also makes jose refuse an `iat` in the future. */
  maxTokenAgeSeconds?: number;
  /** Claims jose must find; by default `jti` and `iat`. */
  requiredClaims?: string[];
  now?: Date;
  clockToleranceSeconds?: number;
}

/**
 * Verifies signature, typ, iss/aud/sub and times with jose, then every claim
 * with the object's zod schema. Throws only envelope errors.
 */
export async function verifyEnvelope<S extends z.ZodType>(
  input: unknown,
  check: EnvelopeCheck<S>,
): Promise<Verified<z.output<S>>> {
  const what = check.type[0]?.toUpperCase() + check.type.slice(1);
  const jws = readCompact(input);
  const header = peekHeader(jws, what);
  // Hashed while the signature is checked: both wait on the platform's crypto, not on each other.
  const hashing = objectHash(jws);
  hashing.catch(() => undefined);
  let payload: unknown;
  try {
    const options = {
      typ: typHeader(check.type),
      algorithms: check.algorithms,
      issuer: check.issuer,
      audience: check.audience,
      subject: check.subject,
      maxTokenAge: check.maxTokenAgeSeconds,
      currentDate: check.now,
      clockTolerance: check.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS,
      requiredClaims: check.requiredClaims ?? ["jti", "iat"],
    };
    // jose overloads key vs. key-resolver; both branches share the options.
    const result =
      typeof check.key === "function"
        ? await jwtVerify(jws, check.key, options)
        : await jwtVerify(jws, check.key, options);
    payload = result.payload;
  } catch (error) {
    throw fromJoseError(error, what, header.typ);
  }
  const claims = parseClaims(check.schema, payload, what);
  return { jws, hash: await hashing, header, claims };
}
