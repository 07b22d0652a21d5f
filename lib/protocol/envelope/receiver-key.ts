import { createLocalJWKSet, type JWK } from "jose";
import type { z } from "zod";
import { ProtocolError, type ProtocolErrorCode } from "../errors";
import { readCompact } from "./compact";
import type { Descriptor } from "./descriptor";
import { type EnvelopeCheck, peekHeader, type Verified, verifyEnvelope } from "./envelope-jwt";

/** A receiver's signing key; `kid` is how its descriptor lists the public half. */
export interface ReceiverKey {
  kid: string;
  alg: string;
  key: CryptoKey | JWK;
}

/** Any asymmetric algorithm jose verifies; symmetric ones would let anyone who can verify also sign. */
export const RECEIVER_ALGORITHMS = [
  "EdDSA",
  "Ed25519",
  "ES256",
  "ES384",
  "ES512",
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
];

export type KeySetCheck<S extends z.ZodType> = Omit<EnvelopeCheck<S>, "key" | "algorithms">;

/**
 * One jose key set per list of keys (a cached descriptor's), so each key is
 * imported once rather than on every Quote and Receipt it verifies.
 */
const keySets = new WeakMap<readonly JWK[], ReturnType<typeof createLocalJWKSet>>();

function keySetOf(keys: readonly JWK[]): ReturnType<typeof createLocalJWKSet> {
  let keySet = keySets.get(keys);
  if (!keySet) {
    keySet = createLocalJWKSet({ keys: [...keys] });
    keySets.set(keys, keySet);
  }
  return keySet;
}

/** Verifies an object under the key of `keys` its header names by `kid`; any other kid is refused with `unknownKid`. */
export async function verifyUnderKeySet<S extends z.ZodType>(
  input: unknown,
  keys: readonly JWK[],
  owner: string,
  check: KeySetCheck<S>,
  unknownKid: ProtocolErrorCode = "key-not-in-descriptor",
): Promise<Verified<z.output<S>>> {
  const { kid } = peekHeader(readCompact(input), check.type);
  if (typeof kid !== "string") {
    throw new ProtocolError(
      "malformed-jws",
      `The ${check.type} header has no "kid" naming its signing key`,
    );
  }
  if (!keys.some((key) => key.kid === kid)) {
    throw new ProtocolError(
      unknownKid,
      `The ${check.type} kid ${JSON.stringify(kid)} is not among the keys of ${owner}`,
    );
  }
  return verifyEnvelope(input, {
    ...check,
    key: keySetOf(keys),
    algorithms: RECEIVER_ALGORITHMS,
  });
}

/** Verifies a receiver-signed object (Quote, Receipt): key from the descriptor, `iss` = its id. */
export function verifyReceiverEnvelope<S extends z.ZodType>(
  input: unknown,
  descriptor: Descriptor,
  check: Omit<KeySetCheck<S>, "issuer">,
): Promise<Verified<z.output<S>>> {
  return verifyUnderKeySet(input, descriptor.keys.keys as JWK[], `descriptor ${descriptor.id}`, {
    ...check,
    issuer: descriptor.id,
  });
}
