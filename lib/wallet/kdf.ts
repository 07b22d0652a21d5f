import { base64url } from "jose";
import { WalletError } from "./errors";

/** OWASP 2023 floor for PBKDF2-HMAC-SHA256. */
export const MIN_PBKDF2_ITERATIONS = 600_000;

export interface KdfParams {
  name: "PBKDF2";
  hash: "SHA-256";
  iterations: number;
  /** 16 random bytes, base64url. */
  salt: string;
}

/** Fresh parameters with a random salt; refuses anything weaker than the floor. */
export function newKdfParams(iterations: number = MIN_PBKDF2_ITERATIONS): KdfParams {
  if (!Number.isSafeInteger(iterations) || iterations < MIN_PBKDF2_ITERATIONS) {
    throw new WalletError(
      "weak-kdf-params",
      `PBKDF2 iterations must be an integer of at least ${MIN_PBKDF2_ITERATIONS}, got ${iterations}`,
    );
  }
  const salt = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return { name: "PBKDF2", hash: "SHA-256", iterations, salt: base64url.encode(salt) };
}

/**
 * The AES-GCM-256 key for `params`. Extractable on purpose: while unlocked, this key
 * (not the password, not the private keys) is what storage.session keeps.
 */
export async function deriveVaultKey(password: string, params: KdfParams): Promise<CryptoKey> {
  const subtle = globalThis.crypto.subtle;
  const material = await subtle.importKey(
    "raw",
    // NFKC: the same password typed on another keyboard or OS must give the same key.
    new TextEncoder().encode(password.normalize("NFKC")),
    "PBKDF2",
    false,
    ["deriveKey"],
  );
  return subtle.deriveKey(
    {
      name: "PBKDF2",
      hash: params.hash,
      iterations: params.iterations,
      salt: new Uint8Array(base64url.decode(params.salt)),
    },
    material,
    { name: "AES-GCM", length: 256 },
    true,
    ["encrypt", "decrypt"],
  );
}
