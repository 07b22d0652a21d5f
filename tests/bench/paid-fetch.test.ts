import { describe, expect, it } from "vitest";
import { lastHandlingTimes, perPayment } from "./paid-fetch";

describe("perPayment", () => {
  it("divides what the background counted between two snapshots by the payments made", () => {
    const before = {
      requests: { ui_getPolicy: 1, stipendex_pay: 2 },
      transactions: { readonly: 5, readwrite: 7 },
      handlingMs: {},
    };
    const after = {
      requests: { ui_getPolicy: 1, stipendex_pay: 12, stipendex_receipt: 10, ui_getDiagnostics: 1 },
      transactions: { readonly: 5, readwrite: 27 },
      handlingMs: {},
    };
    expect(perPayment(before, after, 10)).toEqual([
      "per payment, counted over 10: 2.10 requests to the background (stipendex_pay 1.00, stipendex_receipt 1.00, ui_getDiagnostics 0.10), each one message on the relay's port each way;",
      "2.00 read-write and 0.00 read-only IndexedDB transactions.",
    ]);
  });
});

describe("lastHandlingTimes", () => {
  const after = {
    requests: {},
    transactions: { readonly: 0, readwrite: 0 },
    handlingMs: { stipendex_pay: [9, 1, 2, 3] },
  };

  it("takes the latest times of the method, the timed payments after the warm-up", () => {
    expect(lastHandlingTimes(after, "stipendex_pay", 3)).toEqual([1, 2, 3]);
  });

  it("refuses to make a figure of fewer times than payments", () => {
    expect(() => lastHandlingTimes(after, "stipendex_pay", 5)).toThrow(/kept 4 .* not 5/);
    expect(() => lastHandlingTimes(after, "stipendex_receipt", 1)).toThrow(/kept 0/);
  });
});
