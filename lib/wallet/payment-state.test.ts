import { describe, expect, it } from "vitest";
import { InvalidTransitionError } from "./errors";
import {
  assertTransition,
  canTransition,
  PAYMENT_STATES,
  type PaymentState,
} from "./payment-state";

const ALL: PaymentState[] = [
  "quoted",
  "approved",
  "declined",
  "refused",
  "signed",
  "settled",
  "failed",
  "expired",
];

describe("PAYMENT_STATES", () => {
  it("lists every state once", () => {
    expect([...PAYMENT_STATES].sort()).toEqual([...ALL].sort());
  });
});

describe("canTransition", () => {
  it("allows exactly the documented edges", () => {
    const allowed = ALL.flatMap((from) =>
      ALL.filter((to) => canTransition(from, to)).map((to) => `${from}>${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        "quoted>approved",
        "quoted>declined",
        "quoted>refused",
        "quoted>expired",
        "approved>signed",
        "approved>refused",
        "approved>expired",
        "signed>settled",
        "signed>failed",
        "signed>expired",
      ].sort(),
    );
  });
});

describe("assertTransition", () => {
  it("passes an allowed edge", () => {
    expect(() => assertTransition("p1", "approved", "signed")).not.toThrow();
  });

  it("throws InvalidTransitionError naming the payment and both states", () => {
    expect(() => assertTransition("p1", "quoted", "signed")).toThrow(InvalidTransitionError);
    expect(() => assertTransition("p1", "settled", "failed")).toThrow(
      'payment p1 cannot go from "settled" to "failed"',
    );
  });
});
