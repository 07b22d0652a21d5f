import { describe, expect, it } from "vitest";
import { asForwardedCall, notePaidAtHttp } from "./forwarded-call";

describe("asForwardedCall", () => {
  it("keeps what each call paid at the HTTP layer its own, however calls interleave", async () => {
    const paid = await Promise.all(
      ["p1", "p2"].map((paymentId, i) =>
        asForwardedCall(async (call) => {
          await new Promise((resolve) => setTimeout(resolve, 10 - i * 5));
          notePaidAtHttp(paymentId);
          await new Promise((resolve) => setTimeout(resolve, 10));
          return call.paidAtHttp;
        }),
      ),
    );
    expect(paid).toEqual(["p1", "p2"]);
  });

  it("notes nothing for a call that paid nothing, nor outside any call", async () => {
    notePaidAtHttp("outside");
    expect(await asForwardedCall(async (call) => call.paidAtHttp)).toBeUndefined();
  });
});
