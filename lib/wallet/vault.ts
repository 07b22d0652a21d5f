import { base64url } from "jose";
import type { Address, Hex } from "viem";
import { z } from "zod";
import { vaultCorrupt, WalletError } from "./errors";
import type { KdfParams } from "./kdf";
import { type SigningPrivateJwk, signingPrivateJwkSchema } from "./signing-key";

const b64u = z.string().regex(/^[A-Za-z0-9_-]+$/, "base64url");

/** What storage.local keeps. Only public facts are in the clear; both private keys are in `ciphertext`. */
export const vaultRecordSchema = z.object({
  stipendexVault: z.literal(1),
  kdf: z.object({
    name: z.literal("PBKDF2"),
    hash: z.literal("SHA-256"),
    // Any positive count opens (params can be raised later); creation enforces the floor.
    iterations: z.number().int().positive(),
    salt: b64u,
  }),
  cipher: z.object({ name: z.literal("AES-GCM"), iv: b64u }),
  ciphertext: b64u,
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  walletId: z.string(),
});
export type VaultRecord = z.infer<typeof vaultRecordSchema> & { kdf: KdfParams; address: Address };

/** The plaintext inside the vault. */
const secretsSchema = z.object({
  evmPrivateKey: z.string().regex(/^0x[0-9a-f]{64}$/),
  signingKey: signingPrivateJwkSchema,
});
export interface VaultSecrets {
  evmPrivateKey: Hex;
  signingKey: SigningPrivateJwk;
}

/** Reads an untrusted stored value as a vault record. */
export function parseVault(value: unknown): VaultRecord {
  const parsed = vaultRecordSchema.safeParse(value);
  if (!parsed.success) {
    throw vaultCorrupt(
      `the stored record does not match the vault format (${parsed.error.message})`,
    );
  }
  return parsed.data as VaultRecord;
}

/** Encrypts the secrets under `key` with a fresh random 12-byte IV. */
export async function sealSecrets(
  key: CryptoKey,
  secrets: VaultSecrets,
): Promise<Pick<VaultRecord, "cipher" | "ciphertext">> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const plaintext = new TextEncoder().encode(JSON.stringify(secrets));
  const sealed = await globalThis.crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, plaintext);
  plaintext.fill(0);
  return {
    cipher: { name: "AES-GCM", iv: base64url.encode(iv) },
    ciphertext: base64url.encode(new Uint8Array(sealed)),
  };
}

/** Decrypts the vault; an AES-GCM authentication failure means the key (password) is wrong. */
export async function openSecrets(key: CryptoKey, vault: VaultRecord): Promise<VaultSecrets> {
  let plaintext: Uint8Array;
  try {
    const opened = await globalThis.crypto.subtle.decrypt(
      { name: "AES-GCM", iv: new Uint8Array(base64url.decode(vault.cipher.iv)) },
      key,
      new Uint8Array(base64url.decode(vault.ciphertext)),
    );
    plaintext = new Uint8Array(opened);
  } catch (cause) {
    throw new WalletError("wrong-password", "Wrong password: it does not unlock this wallet", {
      cause,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(plaintext));
  } catch (cause) {
    throw vaultCorrupt("the decrypted content is not JSON", { cause });
  } finally {
    plaintext.fill(0);
  }
  const secrets = secretsSchema.safeParse(json);
  if (!secrets.success) {
    throw vaultCorrupt("the decrypted content is not a pair of wallet keys");
  }
  return secrets.data as VaultSecrets;
}
