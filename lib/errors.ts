/**
 * Base of every error the wallet raises on purpose. Each layer has one
 * subclass that narrows `code` (machine-readable, kebab-case) to its own union;
 * the message says what was wrong.
 */
export class StipendexError extends Error {
  override name = "StipendexError";
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** A layer's type guard: whether a value is one of `ErrorClass`, with one of `codes` when any are given. */
export function errorGuard<E extends StipendexError>(
  ErrorClass: abstract new (...args: never) => E,
): (error: unknown, ...codes: E["code"][]) => error is E {
  return (error, ...codes): error is E =>
    error instanceof ErrorClass && (codes.length === 0 || codes.includes(error.code));
}

/** The message of something thrown, for a person or an error that wraps it. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
