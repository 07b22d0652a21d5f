import type { Address, Hex } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { isWalletError, vaultCorrupt, WalletError } from "./errors";
import { parseEvmPrivateKey } from "./evm-key";
import { deriveVaultKey, type KdfParams, MIN_PBKDF2_ITERATIONS, newKdfParams } from "./kdf";
import { generateSigningJwk, loadSigningKey, type WalletSigningKey } from "./signing-key";
import { openSecrets, sealSecrets, type VaultRecord, type VaultSecrets } from "./vault";

/**
 * What storage.session keeps while unlocked: the AES key derived from the password
 * (never the password, never the private keys), tagged with the salt it belongs to.
 */
export const sessionKeySchema = z.object({
  salt: z.string(),
  key: z.object({ kty: z.literal("oct"), k: z.string() }).loose(),
});
export type SessionKey = z.infer<typeof sessionKeySchema>;

export interface UnlockedWallet {
  address: Address;
  evmAccount: PrivateKeyAccount;
  signingKey: WalletSigningKey;
  sessionKey: SessionKey;
}

export interface CreateVaultOptions {
  /** An EVM private key to import instead of generating one. */
  importKey?: string;
  /** PBKDF2 iterations, at least 600,000 (the default). */
  iterations?: number;
}

async function seal(
  password: string,
  secrets: VaultSecrets,
  kdf: KdfParams,
  walletId: string,
): Promise<VaultRecord> {
  const key = await deriveVaultKey(password, kdf);
  return {
    stipendexVault: 1,
    kdf,
    ...(await sealSecrets(key, secrets)),
    address: privateKeyToAccount(secrets.evmPrivateKey).address,
    walletId,
  };
}

/** A new vault: a random (or imported) EVM key and a fresh signing key, sealed under `password`. */
export async function createVault(
  password: string,
  options: CreateVaultOptions = {},
): Promise<VaultRecord> {
  const kdf = newKdfParams(options.iterations);
  const evmPrivateKey =
    options.importKey === undefined ? generatePrivateKey() : parseEvmPrivateKey(options.importKey);
  const signingJwk = await generateSigningJwk();
  const { walletId } = await loadSigningKey(signingJwk);
  return seal(password, { evmPrivateKey, signingKey: signingJwk }, kdf, walletId);
}

async function exportSessionKey(key: CryptoKey, vault: VaultRecord): Promise<SessionKey> {
  const jwk = await globalThis.crypto.subtle.exportKey("jwk", key);
  return sessionKeySchema.parse({ salt: vault.kdf.salt, key: jwk });
}

async function materialize(
  vault: VaultRecord,
  secrets: VaultSecrets,
  sessionKey: SessionKey,
): Promise<UnlockedWallet> {
  const evmAccount = privateKeyToAccount(secrets.evmPrivateKey);
  const signingKey = await loadSigningKey(secrets.signingKey);
  // The clear-text address and wallet id must belong to the keys inside.
  if (evmAccount.address.toLowerCase() !== vault.address.toLowerCase()) {
    throw vaultCorrupt(
      `stored address ${vault.address} is not the address of the key inside (${evmAccount.address})`,
    );
  }
  if (signingKey.walletId !== vault.walletId) {
    throw vaultCorrupt(`stored wallet id ${vault.walletId} is not the key inside`);
  }
  return { address: evmAccount.address, evmAccount, signingKey, sessionKey };
}

/** Opens the vault with the password, using the KDF parameters stored in it. */
export async function unlockVault(vault: VaultRecord, password: string): Promise<UnlockedWallet> {
  const key = await deriveVaultKey(password, vault.kdf);
  const secrets = await openSecrets(key, vault);
  return materialize(vault, secrets, await exportSessionKey(key, vault));
}

function sessionKeyMismatch(options?: { cause?: unknown }): WalletError {
  return new WalletError(
    "session-key-mismatch",
    "the stored session key does not open this vault (was the password changed?); unlock again",
    options,
  );
}

/** Re-opens the vault in a restarted worker from the session key alone (no KDF run). */
export async function unlockWithSessionKey(
  vault: VaultRecord,
  sessionKey: SessionKey,
): Promise<UnlockedWallet> {
  if (sessionKey.salt !== vault.kdf.salt) throw sessionKeyMismatch();
  let key: CryptoKey;
  try {
    key = await globalThis.crypto.subtle.importKey("jwk", sessionKey.key, "AES-GCM", false, [
      "decrypt",
    ]);
  } catch (cause) {
    throw sessionKeyMismatch({ cause });
  }
  let secrets: VaultSecrets;
  try {
    secrets = await openSecrets(key, vault);
  } catch (error) {
    if (isWalletError(error, "wrong-password")) throw sessionKeyMismatch({ cause: error });
    throw error;
  }
  return materialize(vault, secrets, sessionKey);
}

/**
 * Re-encrypts under a new password with a new salt and IV. Iterations default to the
 * stored count, raised to the current floor if it was lower.
 */
export async function changePassword(
  vault: VaultRecord,
  oldPassword: string,
  newPassword: string,
  options: { iterations?: number } = {},
): Promise<VaultRecord> {
  const secrets = await openSecrets(await deriveVaultKey(oldPassword, vault.kdf), vault);
  const kdf = newKdfParams(
    options.iterations ?? Math.max(vault.kdf.iterations, MIN_PBKDF2_ITERATIONS),
  );
  return seal(newPassword, secrets, kdf, vault.walletId);
}

/** The EVM private key, for backup. Asks for the password again even when unlocked. */
export async function exportPrivateKey(vault: VaultRecord, password: string): Promise<Hex> {
  const secrets = await openSecrets(await deriveVaultKey(password, vault.kdf), vault);
  return secrets.evmPrivateKey;
}
