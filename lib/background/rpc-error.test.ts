import { describe, expect, it } from "vitest";
import { ErrorCode } from "../messages";
import { PaymentError } from "../payments/errors";
import { ProtocolError } from "../protocol/errors";
import { WalletError } from "../wallet/errors";
import { asInvalidQuote, RpcError, toWireError } from "./rpc-error";

describe("toWireError", () => {
  it.each([
    [new PaymentError("user-declined", "no"), ErrorCode.UserRejected],
    [new PaymentError("policy-refused", "no", { rule: "expired" }), ErrorCode.BudgetExceeded],
    [new WalletError("budget-exhausted", "no"), ErrorCode.BudgetExceeded],
    [new WalletError("charge-not-allowed", "no", { rule: "network" }), ErrorCode.BudgetExceeded],
    [new PaymentError("wallet-locked", "no"), ErrorCode.Locked],
    [new PaymentError("no-wallet", "no"), ErrorCode.Unauthorized],
    [new WalletError("wrong-password", "no"), ErrorCode.Unauthorized],
    [new PaymentError("unknown-payment", "no"), ErrorCode.InvalidParams],
    [new PaymentError("too-many-waiting", "no"), ErrorCode.TooManyPending],
    [new WalletError("invalid-auto-lock", "no"), ErrorCode.InvalidParams],
    [new WalletError("invalid-private-key", "no"), ErrorCode.InvalidParams],
    [new PaymentError("settlement-failed", "no"), ErrorCode.Internal],
  ])("numbers the wallet's own refusal %s like EIP-1193, with its reason", (error, code) => {
    expect(toWireError(error)).toEqual({ code, message: "no", data: { reason: error.code } });
  });

  it("sends an RpcError's reason as data.reason, and its other data as given", () => {
    const stale = new RpcError(ErrorCode.InvalidParams, "stale", { reason: "stale-policy" });
    expect(stale.code).toBe("stale-policy");
    expect(toWireError(stale)).toEqual({
      code: ErrorCode.InvalidParams,
      message: "stale",
      data: { reason: "stale-policy" },
    });
    const limited = new RpcError(ErrorCode.RateLimited, "slow", { data: { retryAfterMs: 5 } });
    expect(toWireError(limited)).toEqual({
      code: ErrorCode.RateLimited,
      message: "slow",
      data: { retryAfterMs: 5 },
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
    const wire = toWireError(asInvalidQuote(new ProtocolError("expired", "Quote expired at 12")));
    expect(wire).toEqual({
      code: ErrorCode.InvalidQuote,
      message: "Quote expired at 12",
      data: { reason: "expired" },
    });
    const declined = new PaymentError("user-declined", "You declined the payment");
    expect(asInvalidQuote(declined)).toBe(declined);
    const rpc = new RpcError(ErrorCode.InvalidParams, "bad");
    expect(asInvalidQuote(rpc)).toBe(rpc);
  });

  it.each([
    new PaymentError("unreadable-challenge", "no price"),
    new PaymentError("decimals-mismatch", "10000 meant as 0.01"),
    new WalletError("duplicate-quote", "seen before"),
    new WalletError("quote-already-paid", "paid"),
  ])("blames the price for %s", (error) => {
    expect(toWireError(asInvalidQuote(error)).code).toBe(ErrorCode.InvalidQuote);
  });

  it.each([
    new WalletError("invalid-transition", "signed -> quoted"),
    new WalletError("payment-not-found", "no p1"),
    new WalletError("vault-corrupt", "unreadable vault"),
  ])("does not blame the price for the wallet's own failure %s", (error) => {
    expect(asInvalidQuote(error)).toBe(error);
    expect(toWireError(error)).toMatchObject({
      code: ErrorCode.Internal,
      data: { reason: error.code },
    });
  });
});
