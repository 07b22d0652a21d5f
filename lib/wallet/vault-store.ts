import { SessionKeyMismatchError } from "./errors";
import type { KeyValueStore } from "./key-value-store";
import {
  type SessionKey,
  sessionKeySchema,
  type UnlockedWallet,
  unlockWithSessionKey,
} from "./keyring";
import { SESSION_STORAGE_KEY, VAULT_STORAGE_KEY } from "./storage-keys";
import { parseVault, type VaultRecord } from "./vault";

export async function loadVault(local: KeyValueStore): Promise<VaultRecord | undefined> {
  const value = await local.get(VAULT_STORAGE_KEY);
  return value === undefined ? undefined : parseVault(value);
}

export async function saveVault(local: KeyValueStore, vault: VaultRecord): Promise<void> {
  await local.set(VAULT_STORAGE_KEY, vault);
}

/** Keeps the unlocked state across worker restarts (storage.session dies with the browser). */
export async function saveSession(session: KeyValueStore, wallet: UnlockedWallet): Promise<void> {
  await session.set(SESSION_STORAGE_KEY, wallet.sessionKey);
}

/** Locking forgets the session key; the vault stays. */
export async function lock(session: KeyValueStore): Promise<void> {
  await session.remove(SESSION_STORAGE_KEY);
}

/**
 * What a (re)started worker calls: the unlocked wallet if a session key is kept and still
 * opens the stored vault, otherwise undefined (locked). A stale or malformed session
 * key is dropped rather than kept around.
 */
export async function resumeSession(
  local: KeyValueStore,
  session: KeyValueStore,
): Promise<UnlockedWallet | undefined> {
  const stored = await session.get(SESSION_STORAGE_KEY);
  if (stored === undefined) return undefined;
  const vault = await loadVault(local);
  const sessionKey = sessionKeySchema.safeParse(stored);
  if (vault === undefined || !sessionKey.success) {
    await lock(session);
    return undefined;
  }
  try {
    return await unlockWithSessionKey(vault, sessionKey.data as SessionKey);
  } catch (error) {
    if (!(error instanceof SessionKeyMismatchError)) throw error;
    await lock(session);
    return undefined;
  }
}
