import { describe, expect, it } from "vitest";
import { PAYMENT_STATES } from "../payment-states";
import { stateWords } from "./state-words";

describe("stateWords", () => {
  it("has English words for every state", () => {
    expect(PAYMENT_STATES.map(stateWords)).toEqual([
      "waiting",
      "approved",
      "declined",
      "refused",
      "signed",
      "paid",
      "failed",
      "expired",
    ]);
  });
});
