import { STORAGE_KEYS } from "../storage-keys";

/** What the confirmation window shows changes with these storage.session keys. */
const WATCHED = [STORAGE_KEYS.pending, STORAGE_KEYS.session];

/**
 * Calls `onChange` whenever what the confirmation window shows may have
 * changed: the approval queue, or the wallet locking or unlocking. The
 * browser pushes storage.session changes, so nothing is polled; start
 * watching before the first read so no change falls in between. Returns the
 * function that stops watching.
 */
export function watchPending(onChange: () => void): () => void {
  const listener = (changes: Record<string, unknown>) => {
    if (WATCHED.some((key) => key in changes)) onChange();
  };
  browser.storage.session.onChanged.addListener(listener);
  return () => browser.storage.session.onChanged.removeListener(listener);
}
