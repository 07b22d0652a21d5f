import type { JWK } from "jose";
import { checkDescriptor, type Descriptor, descriptorSchema } from "./descriptor";
import { signEnvelope } from "./envelope-jwt";
import { parseClaims } from "./parse-claims";
import { type ReceiverKey, verifyUnderKeySet } from "./receiver-key";

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
  /** Public keys of the registries this wallet trusts, each with its `kid`. */
  trustedKeys: readonly JWK[];
  /** The receiver origin the wallet is about to pay. */
  fetchedFromOrigin: string;
  now?: Date;
  clockToleranceSeconds?: number;
}

/**
 * Verifies a registry-signed descriptor under a trusted registry key found by
 * kid, then checks the descriptor itself as if fetched from the receiver.
 */
export async function verifyRegistryDescriptor(
  jws: unknown,
  options: VerifyRegistryDescriptorOptions,
): Promise<Descriptor> {
  const verified = await verifyUnderKeySet(
    jws,
    options.trustedKeys,
    "the trusted registry keys",
    {
      type: "descriptor",
      schema: descriptorSchema,
      requiredClaims: ["iat"],
      now: options.now,
      clockToleranceSeconds: options.clockToleranceSeconds,
    },
    "untrusted-registry-key",
  );
  return checkDescriptor(verified.claims, options.fetchedFromOrigin);
}
