import { describe, expect, it } from "vitest";
import { amountProblem, atomicAmountSchema } from "./amount";

describe("amountProblem / atomicAmountSchema", () => {
  it.each([
    ["5000", null],
    ["0", null],
    [(2n ** 256n - 1n).toString(), null],
    [(2n ** 256n).toString(), "amount-out-of-range"],
    ["-5", "negative-amount"],
    ["-0", "amount-not-integer"],
    ["05000", "amount-not-integer"],
    ["5e3", "amount-not-integer"],
    ["0.5", "amount-not-integer"],
    ["", "amount-not-integer"],
    [5000, "amount-not-integer"],
    [null, "amount-not-integer"],
  ])("%j → %s", (value, problem) => {
    expect(amountProblem(value)).toBe(problem);
    const result = atomicAmountSchema.safeParse(value);
    expect(result.success).toBe(problem === null);
    if (!result.success)
      expect(result.error.issues[0]).toMatchObject({ params: { code: problem } });
  });
});
