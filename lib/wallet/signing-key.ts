import { calculateJwkThumbprint, calculateJwkThumbprintUri, type JWK } from "jose";
import { z } from "zod";
import { vaultCorrupt } from "./errors";

export type SigningAlg = "EdDSA" | "ES256";

/** The private signing key as kept (encrypted) in the vault: RFC 7517 members only. */
export const signingPrivateJwkSchema = z.union([
  z.object({ kty: z.literal("OKP"), crv: z.literal("Ed25519"), x: z.string(), d: z.string() }),
  z.object({
    kty: z.literal("EC"),
    crv: z.literal("P-256"),
    x: z.string(),
    y: z.string(),
    d: z.string(),
  }),
]);
export type SigningPrivateJwk = z.infer<typeof signingPrivateJwkSchema>;

/** The wallet's key for Proofs and Confirmations, ready to sign. */
export interface WalletSigningKey {
  alg: SigningAlg;
  /** Not extractable: once unlocked, the private key cannot be read back out. */
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** Public members plus `kid` (the thumbprint) and `alg`, for JWS headers. */
  publicJwk: JWK;
  /** RFC 7638 SHA-256 thumbprint, base64url. */
  thumbprint: string;
  /** `urn:ietf:params:oauth:jwk-thumbprint:sha-256:<thumbprint>` */
  walletId: string;
}

const ED25519 = { name: "Ed25519" } as const;
const P256 = { name: "ECDSA", namedCurve: "P-256" } as const;

/**
 * A fresh signing key as a private JWK. Ed25519 where the engine has it; engines
 * without it (older Chrome, some Safari) reject the algorithm, so P-256 ECDSA is
 * used instead. Detected by trying, since there is no feature query.
 */
export async function generateSigningJwk(
  subtle: SubtleCrypto = globalThis.crypto.subtle,
): Promise<SigningPrivateJwk> {
  let pair: CryptoKeyPair;
  try {
    pair = (await subtle.generateKey(ED25519, true, ["sign", "verify"])) as CryptoKeyPair;
  } catch {
    pair = await subtle.generateKey(P256, true, ["sign", "verify"]);
  }
  const jwk = await subtle.exportKey("jwk", pair.privateKey);
  return signingPrivateJwkSchema.parse(jwk);
}

function publicMembers(jwk: SigningPrivateJwk): JWK {
  return jwk.kty === "OKP"
    ? { kty: jwk.kty, crv: jwk.crv, x: jwk.x }
    : { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
}

/** Imports the vault's private JWK into usable (non-extractable) CryptoKeys. */
export async function loadSigningKey(
  jwk: SigningPrivateJwk,
  subtle: SubtleCrypto = globalThis.crypto.subtle,
): Promise<WalletSigningKey> {
  const algorithm = jwk.kty === "OKP" ? ED25519 : P256;
  const alg: SigningAlg = jwk.kty === "OKP" ? "EdDSA" : "ES256";
  const pub = publicMembers(jwk);
  let privateKey: CryptoKey;
  let publicKey: CryptoKey;
  try {
    privateKey = await subtle.importKey("jwk", { ...jwk }, algorithm, false, ["sign"]);
    publicKey = await subtle.importKey("jwk", { ...pub }, algorithm, true, ["verify"]);
  } catch (cause) {
    throw vaultCorrupt(`the ${jwk.crv} signing key does not import`, { cause });
  }
  const thumbprint = await calculateJwkThumbprint(pub, "sha256");
  const walletId = await calculateJwkThumbprintUri(pub, "sha256");
  return {
    alg,
    privateKey,
    publicKey,
    publicJwk: { ...pub, kid: thumbprint, alg },
    thumbprint,
    walletId,
  };
}
