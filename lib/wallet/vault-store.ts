import { STORAGE_KEYS } from "../storage-keys";
import { isWalletError, WalletError } from "./errors";
import type { KeyValueStore } from "./key-value-store";
import {
  type SessionKey,
  sessionKeySchema,
  type UnlockedWallet,
  unlockWithSessionKey,
} from "./keyring";
import { readItem, removeItem, storageItem, writeItem } from "./storage-item";
import { parseVault, type VaultRecord } from "./vault";

/**
 * The settings table: the encrypted vault (a corrupt one throws "vault-corrupt"
 * when read). Not storage.local, where versions before kept it: content scripts,
 * and so a compromised page renderer, can read and write that (offline password
 * guessing, a shown address changed, a key not backed up yet deleted).
 */
export const VAULT_ITEM = storageItem<VaultRecord>(STORAGE_KEYS.vault, parseVault);
/** The settings table: true once storage.local was looked at for a vault to move. */
const VAULT_MOVED_ITEM = storageItem<true>(STORAGE_KEYS.vaultMoved, (stored) =>
  stored === true ? true : undefined,
);
/** storage.session: the derived key while unlocked (a malformed one reads as absent). */
export const SESSION_ITEM = storageItem<SessionKey>(STORAGE_KEYS.session, (stored) => {
  const parsed = sessionKeySchema.safeParse(stored);
  return parsed.success ? parsed.data : undefined;
});

export function loadVault(store: KeyValueStore): Promise<VaultRecord | undefined> {
  return readItem(store, VAULT_ITEM);
}

export async function saveVault(store: KeyValueStore, vault: VaultRecord): Promise<void> {
  await writeItem(store, VAULT_ITEM, vault);
}

/** What older versions kept in storage.local that now lives in the settings table: the vault, and the backup reminder. */
const MOVED_FROM_LOCAL = [STORAGE_KEYS.vault, STORAGE_KEYS.backupPending] as const;

/**
 * Moves the vault (and the backup reminder) an older version kept in
 * storage.local to the settings table, once: each copied as stored (even a
 * vault that does not read as one, so nothing is lost), read back, and only
 * then removed from storage.local. A stop half-way leaves a whole vault where
 * the next start finds it and finishes the move. Afterwards storage.local is
 * never looked at again, so a vault a content script puts there is not taken,
 * and a reminder it removes there is not lost.
 */
export async function moveLegacyVault(
  local: KeyValueStore,
  settings: KeyValueStore,
): Promise<void> {
  if (await readItem(settings, VAULT_MOVED_ITEM)) return;
  for (const key of MOVED_FROM_LOCAL) {
    const legacy = await local.get(key);
    if (legacy === undefined) continue;
    // A copy already there is this move's own, from a start that stopped before removing the old one.
    if ((await settings.get(key)) === undefined) {
      await settings.set(key, legacy);
      if (JSON.stringify(await settings.get(key)) !== JSON.stringify(legacy)) {
        await settings.remove(key);
        throw new WalletError(
          "vault-not-moved",
          `The wallet could not move its ${key} to its database (the copy read back different); it stays where it was, and the next start tries again`,
        );
      }
    }
    await local.remove(key);
  }
  await markVaultMoved(settings);
}

/**
 * Nothing is ever moved from storage.local after this: for a fresh install,
 * which has no older vault, so that one a content script puts there before
 * the first read is not taken as the person's.
 */
export async function markVaultMoved(settings: KeyValueStore): Promise<void> {
  await writeItem(settings, VAULT_MOVED_ITEM, true);
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
  vaults: KeyValueStore,
  session: KeyValueStore,
): Promise<UnlockedWallet | undefined> {
  const stored = await session.get(SESSION_ITEM.key);
  if (stored === undefined) return undefined;
  const sessionKey = SESSION_ITEM.read(stored);
  const vault = await loadVault(vaults);
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
