import { type CryptoKey, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";

/** The receiver's signing identity: its id (an origin) and an Ed25519 key named by thumbprint. */
export interface ReceiverIdentity {
  id: string;
  kid: string;
  privateKey: CryptoKey;
  /** Public JWK with `kid`, as listed in the descriptor. */
  publicJwk: JWK;
}

/** A fresh Ed25519 identity for the receiver at origin `id` (new on every demo start). */
export async function createReceiverIdentity(id: string): Promise<ReceiverIdentity> {
  const { privateKey, publicKey } = await generateKeyPair("Ed25519", { extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk, "sha256");
  return {
    id,
    kid,
    privateKey,
    publicJwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid, alg: "EdDSA", use: "sig" },
  };
}
