import { describe, expect, it } from "vitest";
import { perPayment } from "./paid-fetch";

describe("perPayment", () => {
  it("divides what the background counted between two snapshots by the payments made", () => {
    const before = {
      requests: { ui_getPolicy: 1, stipendex_pay: 2 },
      transactions: { readonly: 5, readwrite: 7 },
    };
    const after = {
      requests: { ui_getPolicy: 1, stipendex_pay: 12, stipendex_receipt: 10, ui_getDiagnostics: 1 },
      transactions: { readonly: 5, readwrite: 27 },
    };
    expect(perPayment(before, after, 10)).toEqual([
      "per payment, counted over 10: 2.10 requests to the background (stipendex_pay 1.00, stipendex_receipt 1.00, ui_getDiagnostics 0.10), each one message on the relay's port each way;",
      "2.00 read-write and 0.00 read-only IndexedDB transactions.",
    ]);
  });
});
