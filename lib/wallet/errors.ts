import { errorGuard, StipendexError } from "../errors";

/** Why the wallet layer (vault, keys, ledger, caps) refused something. Each code is stable: the background maps some to wire errors. */
export type WalletErrorCode =
  /** AES-GCM refused to open the vault: the password (or the key derived from it) is wrong. */
  | "wrong-password"
  /** The session key kept in storage.session does not open the current vault (password changed). */
  | "session-key-mismatch"
  /** The stored vault cannot be read, or what it holds is not the wallet's keys. */
  | "vault-corrupt"
  /** A vault moved out of storage.local read back different from the settings table: the old copy is kept. */
  | "vault-not-moved"
  /** A private key to import that is not a valid secp256k1 key. */
  | "invalid-private-key"
  /** PBKDF2 parameters below the wallet's minimum. */
  | "weak-kdf-params"
  /** An auto-lock delay that is not a whole number of minutes from 1 to a week. */
  | "invalid-auto-lock"
  /** No payment record with that id in the ledger. */
  | "payment-not-found"
  /** A payment state change the state machine forbids. */
  | "invalid-transition"
  /** One Quote, one payment record: a quote id seen before is not recorded (or paid) again. */
  | "duplicate-quote"
  /** The payment was already charged: it is never charged twice. */
  | "quote-already-paid"
  /** The charge would overrun a cap; the message starts with "budget exhausted". */
  | "budget-exhausted"
  /** At charge time the payment's network or asset is no longer one the user allows. */
  | "charge-not-allowed";

/** Every refusal of the wallet layer: one class, told apart by `code`. */
export class WalletError extends StipendexError {
  override name = "WalletError";
  declare readonly code: WalletErrorCode;
  /** The payment a charge was refused for (budget-exhausted, charge-not-allowed). */
  readonly paymentId: string | undefined;
  /**
   * The policy rule that refused the charge (charge-not-allowed), or the cap it
   * would overrun (budget-exhausted: "origin-budget" for the site's budget alone).
   */
  readonly rule: string | undefined;

  constructor(
    code: WalletErrorCode,
    message: string,
    options: { cause?: unknown; paymentId?: string; rule?: string } = {},
  ) {
    super(code, message, options);
    this.paymentId = options.paymentId;
    this.rule = options.rule;
  }
}

/** Whether `error` is a WalletError, with one of `codes` when any are given. */
export const isWalletError = errorGuard(WalletError);

/** The stored vault cannot be used: `detail` says why. */
export function vaultCorrupt(detail: string, options?: { cause?: unknown }): WalletError {
  return new WalletError("vault-corrupt", `vault is corrupt: ${detail}`, options);
}

/**
 * Whether `error` refused a charge for overrunning the site's budget alone
 * (global caps are checked first): a budget's approval the person may still give.
 */
export function isOverSiteBudgetAlone(error: unknown): error is WalletError {
  return isWalletError(error, "budget-exhausted") && error.rule === "origin-budget";
}
