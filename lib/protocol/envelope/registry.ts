import type { JWK } from "jose";
import { isProtocolError, ProtocolError } from "../errors";
import { readCompact } from "./compact";
import { checkDescriptor, type Descriptor, descriptorSchema } from "./descriptor";
import { peekHeader, signEnvelope, verifyEnvelope } from "./envelope-jwt";
import { parseClaims } from "./parse-claims";
import { RECEIVER_ALGORITHMS, type ReceiverKey } from "./receiver-key";

/** A registry wraps a receiver's descriptor in a JWS of typ `stipendex-descriptor+jwt`. */
export async function signRegistryDescriptor(
  descriptor: Descriptor,
  registryKey: ReceiverKey,
  issuedAt: number = Math.floor(Date.now() / 1000),
): Promise<string> {
  const claims = parseClaims(descriptorSchema, { iat: issuedAt, ...descriptor }, "Descriptor");
  return signEnvelope(
    "descriptor",
    claims,
    { alg: registryKey.alg, kid: registryKey.kid },
    registryKey.key,
  );
}

export interface VerifyRegistryDescriptorOptions {
  /** Public keys of the registries this wallet trusts (a `kid` optional: the person pastes them). */
  trustedKeys: readonly JWK[];
  /** The receiver origin the wallet is about to pay. */
  fetchedFromOrigin: string;
  now?: Date;
  clockToleranceSeconds?: number;
}

/**
 * Verifies a registry-signed descriptor under a trusted registry key, then
 * checks the descriptor itself as if fetched from the receiver. §4 asks the
 * wrapping JWS for its typ only: a `kid` picks the key when both the JWS and
 * the key name one, and no `iat` is required.
 */
export async function verifyRegistryDescriptor(
  jws: unknown,
  options: VerifyRegistryDescriptorOptions,
): Promise<Descriptor> {
  const compact = readCompact(jws);
  const { kid } = peekHeader(compact, "Descriptor");
  const candidates = options.trustedKeys.filter(
    (key) => kid === undefined || key.kid === undefined || key.kid === kid,
  );
  if (candidates.length === 0) {
    throw new ProtocolError(
      "untrusted-registry-key",
      `The descriptor kid ${JSON.stringify(kid)} is not among the trusted registry keys`,
    );
  }
  let refusal: unknown;
  for (const key of candidates) {
    try {
      const verified = await verifyEnvelope(compact, {
        type: "descriptor",
        schema: descriptorSchema,
        key,
        algorithms: RECEIVER_ALGORITHMS,
        requiredClaims: [],
        now: options.now,
        clockToleranceSeconds: options.clockToleranceSeconds,
      });
      return checkDescriptor(verified.claims, options.fetchedFromOrigin);
    } catch (error) {
      // Another trusted key without a kid may be the one: only a signature that fails goes on.
      if (!isProtocolError(error, "bad-signature")) throw error;
      refusal = error;
    }
  }
  throw refusal;
}
