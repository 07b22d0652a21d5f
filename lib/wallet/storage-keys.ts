/**
 * Where the vault and the unlocked session live in extension storage: a
 * module of its own so that a page watching the lock (the confirmation
 * window) does not bundle the keyring.
 */

/** storage.local: the encrypted vault. */
export const VAULT_STORAGE_KEY = "stipendex.vault";
/** storage.session: the derived key while unlocked. */
export const SESSION_STORAGE_KEY = "stipendex.session";
