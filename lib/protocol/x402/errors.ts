import { StipendexError } from "../../errors";
import { quote } from "../rails/errors";

export class BodyTooLargeError extends StipendexError {
  override name = "BodyTooLargeError";
  constructor(what: string, bytes: number, limit: number) {
    super("body-too-large", `${what} is ${bytes} bytes, over the ${limit}-byte limit; not parsed`);
  }
}

export class HeaderNotBase64Error extends StipendexError {
  override name = "HeaderNotBase64Error";
  constructor(what: string, value: string, options?: { cause?: unknown }) {
    super("header-not-base64", `${what} is not standard base64 of UTF-8: ${quote(value)}`, options);
  }
}

export class NotJsonError extends StipendexError {
  override name = "NotJsonError";
  constructor(what: string, text: string, options?: { cause?: unknown }) {
    super("not-json", `${what} is not JSON: ${quote(text)}`, options);
  }
}

export class UnsupportedX402VersionError extends StipendexError {
  override name = "UnsupportedX402VersionError";
  constructor(what: string, version: unknown) {
    super(
      "unsupported-x402-version",
      `${what} has x402Version ${quote(version)}; only 1 and 2 are read`,
    );
  }
}

export class MalformedPaymentRequiredError extends StipendexError {
  override name = "MalformedPaymentRequiredError";
  constructor(field: string, problem: string, value: unknown) {
    super("malformed-payment-required", `${field} ${problem}: ${quote(value)}`);
  }
}

export class UnsupportedSchemeError extends StipendexError {
  override name = "UnsupportedSchemeError";
  constructor(field: string, scheme: unknown) {
    super("unsupported-scheme", `${field} is ${quote(scheme)}; this wallet pays only "exact"`);
  }
}

export class UnsupportedTransferMethodError extends StipendexError {
  override name = "UnsupportedTransferMethodError";
  constructor(field: string, method: unknown) {
    super(
      "unsupported-transfer-method",
      `${field} is ${quote(method)}; this wallet signs only EIP-3009 ("eip3009")`,
    );
  }
}

export class DomainMissingError extends StipendexError {
  override name = "DomainMissingError";
  constructor(field: string, value: unknown) {
    super(
      "domain-missing",
      `EIP-712 domain name/version missing: ${field} must be a non-empty string, got ${quote(value)}`,
    );
  }
}

export interface SkippedOption {
  index: number;
  error: StipendexError;
}

export class NoPayableOptionError extends StipendexError {
  override name = "NoPayableOptionError";
  readonly skipped: readonly SkippedOption[];
  constructor(skipped: readonly SkippedOption[]) {
    const reasons = skipped.map((s) => `accepts[${s.index}]: ${s.error.code}: ${s.error.message}`);
    super(
      "no-payable-option",
      `no payment option this wallet can pay${reasons.length ? `; ${reasons.join("; ")}` : ": accepts is empty"}`,
    );
    this.skipped = skipped;
  }
}

export class MalformedSettleResponseError extends StipendexError {
  override name = "MalformedSettleResponseError";
  constructor(field: string, value: unknown) {
    super(
      "malformed-settle-response",
      `settle response field ${field} is invalid: ${quote(value)}`,
    );
  }
}

export class NotX402PaymentRequiredError extends StipendexError {
  override name = "NotX402PaymentRequiredError";
  constructor(what: string) {
    super("not-x402-payment-required", `${what} carries no x402 PaymentRequired`);
  }
}

export class OptionNotOfferedError extends StipendexError {
  override name = "OptionNotOfferedError";
  constructor(detail: string) {
    super("option-not-offered", `cannot answer: ${detail}`);
  }
}
