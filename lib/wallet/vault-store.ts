import { STORAGE_KEYS } from "../storage-keys";
import { isWalletError } from "./errors";
import type { KeyValueStore } from "./key-value-store";
import {
  type SessionKey,
  sessionKeySchema,
  type UnlockedWallet,
  unlockWithSessionKey,
} from "./keyring";
import { readItem, removeItem, storageItem, writeItem } from "./storage-item";
import { parseVault, type VaultRecord } from "./vault";

/** storage.local: the encrypted vault (a corrupt one throws "vault-corrupt" when read). */
export const VAULT_ITEM = storageItem<VaultRecord>(STORAGE_KEYS.vault, parseVault);
/** storage.session: the derived key while unlocked (a malformed one reads as absent). */
export const SESSION_ITEM = storageItem<SessionKey>(STORAGE_KEYS.session, (stored) => {
  const parsed = sessionKeySchema.safeParse(stored);
  return parsed.success ? parsed.data : undefined;
});

export function loadVault(local: KeyValueStore): Promise<VaultRecord | undefined> {
  return readItem(local, VAULT_ITEM);
}

export async function saveVault(local: KeyValueStore, vault: VaultRecord): Promise<void> {
  await writeItem(local, VAULT_ITEM, vault);
}

/** Keeps the unlocked state across worker restarts (storage.session dies with the browser). */
export async function saveSession(session: KeyValueStore, wallet: UnlockedWallet): Promise<void> {
  await writeItem(session, SESSION_ITEM, wallet.sessionKey);
}

/** Locking forgets the session key; the vault stays. */
export async function lock(session: KeyValueStore): Promise<void> {
  await removeItem(session, SESSION_ITEM);
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
  const stored = await session.get(SESSION_ITEM.key);
  if (stored === undefined) return undefined;
  const sessionKey = SESSION_ITEM.read(stored);
  const vault = await loadVault(local);
  if (vault === undefined || sessionKey === undefined) {
    await lock(session);
    return undefined;
  }
  try {
    return await unlockWithSessionKey(vault, sessionKey);
  } catch (error) {
    if (!isWalletError(error, "session-key-mismatch")) throw error;
    await lock(session);
    return undefined;
  }
}
