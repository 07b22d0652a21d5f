/**
 * Base of every error the wallet raises on purpose. Each subclass has a stable
 * `code` (machine-readable, kebab-case) and a message that says what was wrong.
 */
export class StipendexError extends Error {
  override name = "StipendexError";
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
