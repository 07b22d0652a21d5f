import type { WalletDb } from "../db/schema";

/**
 * Where the vault and the session key live. Injected so the wallet core stays pure:
 * the extension passes browser.storage.local / storage.session, tests an in-memory map.
 */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  remove(key: string): Promise<void>;
}

/** The slice of a WebExtension `storage.StorageArea` this adapter needs. */
export interface StorageAreaLike {
  get(keys: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string): Promise<void>;
}

export function storageAreaStore(area: StorageAreaLike): KeyValueStore {
  return {
    get: async (key) => (await area.get(key))[key],
    set: (key, value) => area.set({ [key]: value }),
    remove: (key) => area.remove(key),
  };
}

/** A store over the wallet database's settings table (see SettingsEntry): out of content scripts' reach. */
export function settingsTableStore(db: WalletDb): KeyValueStore {
  return {
    get: async (key) => (await db.settings.get(key))?.value,
    set: async (key, value) => {
      await db.transaction("rw", db.settings, async () => {
        const revision = (await db.settings.get(key))?.revision ?? 0;
        await db.settings.put({ key, value, revision: revision + 1 });
      });
    },
    remove: async (key) => {
      await db.settings.delete(key);
    },
  };
}
