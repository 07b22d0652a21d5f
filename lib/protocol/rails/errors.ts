import { StipendexError } from "../../errors";

/** Show a value the way it arrived, bounded so a hostile input cannot flood a message. */
export function quote(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : String(JSON.stringify(value));
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export class UnknownNetworkError extends StipendexError {
  override name = "UnknownNetworkError";
  constructor(network: unknown) {
    super(
      "unknown-network",
      `unknown network ${quote(network)}: not an EVM chain this wallet knows`,
    );
  }
}

export class UnknownAssetError extends StipendexError {
  override name = "UnknownAssetError";
  constructor(network: string, asset: unknown) {
    super(
      "unknown-asset",
      `unknown asset ${quote(asset)} on ${network}: no token with that address`,
    );
  }
}

export class MissingDecimalsError extends StipendexError {
  override name = "MissingDecimalsError";
  constructor(network: string, asset: unknown, decimals: unknown) {
    super(
      "missing-decimals",
      `token ${quote(asset)} on ${network} has no usable decimals (got ${quote(decimals)}); amounts cannot be read`,
    );
  }
}

export class InvalidTokenError extends StipendexError {
  override name = "InvalidTokenError";
  constructor(field: string, value: unknown) {
    super("invalid-token", `token entry has an invalid ${field}: ${quote(value)}`);
  }
}

export class AmountNotIntegerError extends StipendexError {
  override name = "AmountNotIntegerError";
  constructor(field: string, value: unknown) {
    super(
      "amount-not-integer",
      `${field} must be a string of decimal digits in atomic units, got ${quote(value)}`,
    );
  }
}

export class NegativeAmountError extends StipendexError {
  override name = "NegativeAmountError";
  constructor(field: string, value: unknown) {
    super("negative-amount", `${field} is negative: ${quote(value)}`);
  }
}

export class ZeroAmountError extends StipendexError {
  override name = "ZeroAmountError";
  constructor(field: string) {
    super("zero-amount", `${field} is zero: nothing to pay`);
  }
}

export class AbsurdAmountError extends StipendexError {
  override name = "AbsurdAmountError";
  constructor(field: string, atomic: bigint, decimals: number) {
    super(
      "absurd-amount",
      `${field} ${atomic} with ${decimals} decimals is more than a billion units; refused`,
    );
  }
}

export class AmountSyntaxError extends StipendexError {
  override name = "AmountSyntaxError";
  constructor(text: unknown) {
    super("amount-syntax", `${quote(text)} is not a decimal amount like "0.01" or "12"`);
  }
}

export class AmountPrecisionError extends StipendexError {
  override name = "AmountPrecisionError";
  constructor(text: string, decimals: number) {
    super(
      "amount-precision",
      `${quote(text)} has more fraction digits than the asset's ${decimals} decimals`,
    );
  }
}

export class WrongChainIdError extends StipendexError {
  override name = "WrongChainIdError";
  constructor(network: string, chainId: unknown) {
    super("wrong-chain-id", `chain id ${quote(chainId)} does not match network ${network}`);
  }
}

export class InvalidNonceError extends StipendexError {
  override name = "InvalidNonceError";
  constructor(nonce: unknown) {
    super("invalid-nonce", `EIP-3009 nonce must be 32 bytes of hex, got ${quote(nonce)}`);
  }
}

export class InvalidTimeoutError extends StipendexError {
  override name = "InvalidTimeoutError";
  constructor(value: unknown, max: number) {
    super(
      "invalid-timeout",
      `maxTimeoutSeconds must be a whole number from 1 to ${max}, got ${quote(value)}`,
    );
  }
}

export class InvalidAddressError extends StipendexError {
  override name = "InvalidAddressError";
  constructor(field: string, value: unknown) {
    super("invalid-address", `${field} is not an EVM address: ${quote(value)}`);
  }
}
