import { describe, expect, it } from "vitest";
import { ErrorCode } from "../messages";
import { UserDeclinedError, WalletLockedError } from "../payments/errors";
import { ExpiredError } from "../protocol/envelope/errors";
import { BudgetExhaustedError } from "../wallet/errors";
import { asInvalidQuote, RpcError, toWireError } from "./rpc-error";

describe("toWireError", () => {
  it("numbers the wallet's own refusals like EIP-1193", () => {
    expect(toWireError(new UserDeclinedError())).toMatchObject({ code: ErrorCode.UserRejected });
    expect(toWireError(new WalletLockedError())).toMatchObject({ code: ErrorCode.Locked });
    expect(toWireError(new BudgetExhaustedError("p", "budget exhausted: x"))).toEqual({
      code: ErrorCode.BudgetExceeded,
      message: "budget exhausted: x",
      data: { reason: "budget-exhausted" },
    });
  });

  it("keeps only the message of unexpected errors", () => {
    expect(toWireError(new TypeError("boom"))).toEqual({
      code: ErrorCode.Internal,
      message: "boom",
    });
    expect(toWireError("x")).toEqual({ code: ErrorCode.Internal, message: "Internal error" });
  });
});

describe("asInvalidQuote", () => {
  it("turns a price's own errors into InvalidQuote with the reason, and leaves the wallet's alone", () => {
    const wire = toWireError(asInvalidQuote(new ExpiredError("Quote expired at 12")));
    expect(wire).toEqual({
      code: ErrorCode.InvalidQuote,
      message: "Quote expired at 12",
      data: { reason: new ExpiredError("x").code },
    });
    const declined = new UserDeclinedError();
    expect(asInvalidQuote(declined)).toBe(declined);
    const rpc = new RpcError(ErrorCode.InvalidParams, "bad");
    expect(asInvalidQuote(rpc)).toBe(rpc);
  });
});
