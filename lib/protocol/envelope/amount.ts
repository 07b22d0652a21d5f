import { z } from "zod";

const UINT256_MAX = 2n ** 256n - 1n;

/** The error codes an amount problem maps to; read back by `parseClaims`. */
export const AMOUNT_PROBLEMS = [
  "amount-not-integer",
  "negative-amount",
  "amount-out-of-range",
] as const;
export type AmountProblem = (typeof AMOUNT_PROBLEMS)[number];

/** Why a value is not an atomic amount (a canonical decimal integer string in uint256), or null. */
export function amountProblem(value: unknown): AmountProblem | null {
  if (typeof value !== "string") return "amount-not-integer";
  if (/^-\d+$/.test(value) && value !== "-0") return "negative-amount";
  if (!/^(0|[1-9]\d*)$/.test(value)) return "amount-not-integer";
  return BigInt(value) > UINT256_MAX ? "amount-out-of-range" : null;
}

/** Atomic units as a decimal string: "5000", never 5000 or "5e3" or "05000". */
export const atomicAmountSchema = z.custom<string>().superRefine((value, ctx) => {
  const problem = amountProblem(value);
  if (problem !== null) {
    ctx.addIssue({
      code: "custom",
      message: `must be a decimal string of atomic units (uint256), got ${JSON.stringify(value) ?? String(value)}`,
      params: { code: problem },
    });
  }
});
