import { StipendexError } from "../errors";

/** A date field that is not the YYYY-MM-DD an `<input type="date">` gives. */
export class InvalidDateInputError extends StipendexError {
  override name = "InvalidDateInputError";
  constructor(field: string, value: string) {
    super("invalid-date-input", `${field} must be a date like 2025-01-31, got "${value}"`);
  }
}

/** A money field the person typed that is not a plain decimal amount. */
export class InvalidMoneyInputError extends StipendexError {
  override name = "InvalidMoneyInputError";
  constructor(field: string, value: string, options?: { cause?: unknown }) {
    super(
      "invalid-money-input",
      `${field} must be an amount like 1.25 with at most 6 decimals, got "${value}"`,
      options,
    );
  }
}

/** A settings field that must not be empty. */
export class MissingFieldError extends StipendexError {
  override name = "MissingFieldError";
  constructor(field: string) {
    super("missing-field", `${field} is required`);
  }
}

/** A trusted registry key that is not a JSON object. */
export class InvalidJwkInputError extends StipendexError {
  override name = "InvalidJwkInputError";
  constructor(registry: string, value: string) {
    super(
      "invalid-jwk-input",
      `the key of registry "${registry}" must be a JSON object (a JWK), got "${value.slice(0, 40)}"`,
    );
  }
}

/** Token decimals that are not a whole number a token can have. */
export class InvalidDecimalsInputError extends StipendexError {
  override name = "InvalidDecimalsInputError";
  constructor(asset: string, value: string) {
    super(
      "invalid-decimals-input",
      `decimals of ${asset} must be a whole number 0–36, got "${value}"`,
    );
  }
}
