import { describe, expect, it } from "vitest";
import { PAYMENT_STATES, type PaymentState } from "../payment-states";
import { assertSettlementUndone, assertTransition, canTransition } from "./payment-state";

const ALL: readonly PaymentState[] = PAYMENT_STATES;

describe("PAYMENT_STATES", () => {
  it("lists each state once, and each one's moves are known", () => {
    expect(new Set(PAYMENT_STATES).size).toBe(PAYMENT_STATES.length);
    for (const state of PAYMENT_STATES) expect(() => canTransition(state, "settled")).not.toThrow();
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
        "failed>settled",
        "failed>expired",
        "settled>expired",
      ].sort(),
    );
  });
});

describe("assertTransition", () => {
  it("passes an allowed edge", () => {
    expect(() => assertTransition("p1", "approved", "signed")).not.toThrow();
  });

  it("throws invalid-transition naming the payment and both states", () => {
    expect(() => assertTransition("p1", "quoted", "signed")).toThrow(
      expect.objectContaining({ name: "WalletError", code: "invalid-transition" }),
    );
    expect(() => assertTransition("p1", "settled", "failed")).toThrow(
      'payment p1 cannot go from "settled" to "failed"',
    );
  });
});

describe("assertSettlementUndone", () => {
  it("takes back only a settled payment, and no state machine move allows it", () => {
    expect(() => assertSettlementUndone("p1", "settled")).not.toThrow();
    for (const from of ALL.filter((state) => state !== "settled")) {
      expect(() => assertSettlementUndone("p1", from)).toThrow(
        expect.objectContaining({ name: "WalletError", code: "invalid-transition" }),
      );
    }
    expect(canTransition("settled", "signed")).toBe(false);
  });
});
