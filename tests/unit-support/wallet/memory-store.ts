import type { KeyValueStore } from "../../../lib/wallet/key-value-store";

/** Values are cloned in and out, as a real storage area would, so callers cannot alias them. */
export function memoryStore(): KeyValueStore {
  const map = new Map<string, unknown>();
  return {
    get: async (key) => (map.has(key) ? structuredClone(map.get(key)) : undefined),
    set: async (key, value) => {
      map.set(key, structuredClone(value));
    },
    remove: async (key) => {
      map.delete(key);
    },
  };
}
