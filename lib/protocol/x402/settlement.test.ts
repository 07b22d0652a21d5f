import { encodePaymentResponseHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import { settleResponseHeader } from "x402/types";
import { readSettleResponse, readSettleResponseHeaders } from "./settlement";

const settled = {
  success: true,
  transaction: `0x${"ab".repeat(32)}`,
  network: "eip155:84532" as const,
  payer: "0x857b06519E91e3A54538791bDbb0E22373e36b66",
};

describe("readSettleResponseHeaders", () => {
  it("reads PAYMENT-RESPONSE as @x402/core encodes it", () => {
    const headers = new Headers({ "PAYMENT-RESPONSE": encodePaymentResponseHeader(settled) });
    expect(readSettleResponseHeaders(headers)).toEqual(settled);
  });

  it("reads X-PAYMENT-RESPONSE as the v1 x402 package encodes it", () => {
    const v1 = { ...settled, network: "base-sepolia" as const };
    const headers = new Headers({ "X-PAYMENT-RESPONSE": settleResponseHeader(v1) });
    expect(readSettleResponseHeaders(headers)).toEqual(v1);
  });

  it("returns undefined without either header and refuses junk", () => {
    expect(readSettleResponseHeaders(new Headers())).toBeUndefined();
    expect(() => readSettleResponseHeaders(new Headers({ "PAYMENT-RESPONSE": "%%%" }))).toThrow(
      expect.objectContaining({ code: "header-not-base64" }),
    );
  });
});

describe("readSettleResponse", () => {
  it("keeps a failure reason", () => {
    const failed = {
      success: false,
      transaction: "",
      network: "eip155:84532" as const,
      errorReason: "invalid_signature",
    };
    expect(readSettleResponse(failed)).toEqual(failed);
  });

  it.each([
    [{ ...settled, success: "true" }, "success"],
    [{ ...settled, transaction: 5 }, "transaction"],
    [{ ...settled, network: undefined }, "network"],
    [{ ...settled, amount: "-1" }, "amount"],
    [[], "SettleResponse is []"],
  ])("names the bad field %#", (value, field) => {
    expect(() => readSettleResponse(value)).toThrow(
      expect.objectContaining({
        code: "malformed-settle-response",
        message: expect.stringContaining(field),
      }),
    );
  });
});
