import { StipendexError } from "../errors";

/** AES-GCM refused to open the vault: the password (or the key derived from it) is wrong. */
export class WrongPasswordError extends StipendexError {
  override name = "WrongPasswordError";
  constructor(options?: { cause?: unknown }) {
    super("wrong-password", "wrong password: the vault could not be decrypted with it", options);
  }
}

/** The session key kept in storage.session does not open the current vault (password changed). */
export class SessionKeyMismatchError extends StipendexError {
  override name = "SessionKeyMismatchError";
  constructor(options?: { cause?: unknown }) {
    super(
      "session-key-mismatch",
      "the stored session key does not open this vault (was the password changed?); unlock again",
      options,
    );
  }
}

export class VaultCorruptError extends StipendexError {
  override name = "VaultCorruptError";
  constructor(detail: string, options?: { cause?: unknown }) {
    super("vault-corrupt", `vault is corrupt: ${detail}`, options);
  }
}

export class InvalidPrivateKeyError extends StipendexError {
  override name = "InvalidPrivateKeyError";
  constructor(detail: string) {
    super("invalid-private-key", `invalid EVM private key: ${detail}`);
  }
}

export class WeakKdfParamsError extends StipendexError {
  override name = "WeakKdfParamsError";
  constructor(iterations: number, minimum: number) {
    super(
      "weak-kdf-params",
      `PBKDF2 iterations must be an integer of at least ${minimum}, got ${iterations}`,
    );
  }
}

export class InvalidAutoLockError extends StipendexError {
  override name = "InvalidAutoLockError";
  constructor(minutes: number) {
    super("invalid-auto-lock", `auto-lock minutes must be a positive whole number, got ${minutes}`);
  }
}
