import { ProtocolError, quote } from "../errors";

/** uint256 has at most 78 decimal digits; anything longer is junk, not money. */
const ATOMIC = /^[0-9]{1,78}$/;
const DECIMAL = /^([0-9]{1,78})(?:\.([0-9]{1,78}))?$/;

function negativeAmount(field: string, value: unknown): ProtocolError {
  return new ProtocolError("negative-amount", `${field} is negative: ${quote(value)}`);
}

function pow10(decimals: number): bigint {
  return 10n ** BigInt(decimals);
}

/** Exact display of atomic units: 10000n with 6 decimals is "0.01". */
export function formatAmount(atomic: bigint, decimals: number): string {
  const sign = atomic < 0n ? "-" : "";
  const abs = atomic < 0n ? -atomic : atomic;
  const whole = abs / pow10(decimals);
  const fraction = (abs % pow10(decimals)).toString().padStart(decimals, "0").replace(/0+$/, "");
  return `${sign}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** Exact inverse of formatAmount for non-negative amounts: "0.01" with 6 decimals is 10000n. */
export function parseAmount(text: string, decimals: number): bigint {
  if (typeof text === "string" && text.trim().startsWith("-")) {
    throw negativeAmount("amount", text);
  }
  const match = typeof text === "string" ? DECIMAL.exec(text) : null;
  if (!match) {
    throw new ProtocolError(
      "amount-syntax",
      `${quote(text)} is not a decimal amount like "0.01" or "12"`,
    );
  }
  const whole = match[1] ?? "0";
  const fraction = match[2] ?? "";
  if (fraction.length > decimals) {
    throw new ProtocolError(
      "amount-precision",
      `${quote(text)} has more fraction digits than the asset's ${decimals} decimals`,
    );
  }
  return BigInt(whole) * pow10(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
}

/**
 * Read a wire amount in atomic units. It must be a JSON string of digits: a JSON number
 * loses precision past 2^53 and "0.01" is a display value, both are refused.
 */
export function parseAtomicAmount(value: unknown, field: string): bigint {
  if (typeof value === "string" && /^\s*-/.test(value)) throw negativeAmount(field, value);
  if (typeof value === "number" && value < 0) throw negativeAmount(field, value);
  if (typeof value !== "string" || !ATOMIC.test(value)) {
    throw new ProtocolError(
      "amount-not-integer",
      `${field} must be a string of decimal digits in atomic units, got ${quote(value)}`,
    );
  }
  return BigInt(value);
}

/** Refuse zero, negative, and more than a billion whole units (10^(decimals+9) atomic). */
export function assertSaneAmount(atomic: bigint, decimals: number, field = "amount"): void {
  if (atomic < 0n) throw negativeAmount(field, atomic.toString());
  if (atomic === 0n) throw new ProtocolError("zero-amount", `${field} is zero: nothing to pay`);
  if (atomic > pow10(decimals + 9)) {
    throw new ProtocolError(
      "absurd-amount",
      `${field} ${atomic} with ${decimals} decimals is more than a billion units; refused`,
    );
  }
}
