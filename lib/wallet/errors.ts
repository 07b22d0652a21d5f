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

export class PaymentNotFoundError extends StipendexError {
  override name = "PaymentNotFoundError";
  constructor(id: string) {
    super("payment-not-found", `no payment with id ${id}`);
  }
}

export class InvalidTransitionError extends StipendexError {
  override name = "InvalidTransitionError";
  constructor(id: string, from: string, to: string) {
    super("invalid-transition", `payment ${id} cannot go from "${from}" to "${to}"`);
  }
}

/** One Quote, one payment record: a quote id seen before is not recorded (or paid) again. */
export class DuplicateQuoteError extends StipendexError {
  override name = "DuplicateQuoteError";
  constructor(quoteId: string, options?: { cause?: unknown }) {
    super(
      "duplicate-quote",
      `quote ${quoteId} was already recorded; it is never paid twice`,
      options,
    );
  }
}

export class QuoteAlreadyPaidError extends StipendexError {
  override name = "QuoteAlreadyPaidError";
  constructor(
    id: string,
    quoteId: string | undefined,
    state: string,
    options?: { cause?: unknown },
  ) {
    super(
      "quote-already-paid",
      `payment ${id}${quoteId === undefined ? "" : ` (quote ${quoteId})`} was already charged and is "${state}"`,
      options,
    );
  }
}

/** The charge would overrun a cap; `message` starts with "budget exhausted". */
export class BudgetExhaustedError extends StipendexError {
  override name = "BudgetExhaustedError";
  readonly paymentId: string;
  constructor(paymentId: string, reason: string) {
    super("budget-exhausted", reason);
    this.paymentId = paymentId;
  }
}

/** At charge time the payment's network or asset is no longer one the user allows. */
export class ChargeNotAllowedError extends StipendexError {
  override name = "ChargeNotAllowedError";
  readonly paymentId: string;
  readonly rule: string;
  constructor(paymentId: string, rule: string, reason: string) {
    super("charge-not-allowed", reason);
    this.paymentId = paymentId;
    this.rule = rule;
  }
}
