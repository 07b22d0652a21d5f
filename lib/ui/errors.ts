import { errorGuard, StipendexError } from "../errors";

/** Why a form field the person filled in was refused; the message names the field and the value. */
export type UiErrorCode =
  /** A date field that is not the YYYY-MM-DD an `<input type="date">` gives. */
  | "invalid-date-input"
  /** A money field the person typed that is not a plain decimal amount. */
  | "invalid-money-input"
  /** A settings field that must not be empty. */
  | "missing-field"
  /** A trusted registry key that is not a JSON object. */
  | "invalid-jwk-input"
  /** Token decimals that are not a whole number a token can have. */
  | "invalid-decimals-input"
  /** An auto-lock time that is not a whole number of minutes, 1 or more. */
  | "invalid-auto-lock-input"
  /** Two cap rows for one currency, or two budget rows for one site: one would silently replace the other. */
  | "duplicate-row";

/** Every refusal of the wallet pages' forms: one class, told apart by `code`. */
export class UiError extends StipendexError {
  override name = "UiError";
  declare readonly code: UiErrorCode;

  constructor(code: UiErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** Whether `error` is a UiError, with one of `codes` when any are given. */
export const isUiError = errorGuard(UiError);
