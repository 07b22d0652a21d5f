import type { KeyValueStore } from "./key-value-store";

/**
 * One value the wallet keeps in a key-value store (extension storage or the
 * wallet database's settings table), declared once: its key, and how a
 * stored value is read back as its type. Call sites get the type, never cast.
 */
export interface StorageItem<T> {
  readonly key: string;
  /** The stored value as T, or undefined when it is not of that shape. */
  read(stored: unknown): T | undefined;
}

export function storageItem<T>(
  key: string,
  read: (stored: unknown) => T | undefined,
): StorageItem<T> {
  return { key, read };
}

/** The item's value, or undefined when absent or not of its shape. */
export async function readItem<T>(
  store: KeyValueStore,
  item: StorageItem<T>,
): Promise<T | undefined> {
  const stored = await store.get(item.key);
  return stored === undefined ? undefined : item.read(stored);
}

export function writeItem<T>(store: KeyValueStore, item: StorageItem<T>, value: T): Promise<void> {
  return store.set(item.key, value);
}

export function removeItem<T>(store: KeyValueStore, item: StorageItem<T>): Promise<void> {
  return store.remove(item.key);
}
