import { describe, expect, it } from "vitest";
import {
  readContext,
  v2PaymentRequired,
  v2Requirement,
} from "../../../tests/unit-support/protocol/x402/test-fixtures";
import { readMcpPaymentRequired, readMcpSettleResponse } from "./mcp";
import { MAX_INPUT_BYTES } from "./wire";

const text = (value: unknown) => [{ type: "text", text: JSON.stringify(value) }];
/** What the official x402 MCP server wraps its PaymentRequired in. */
const wrapper = { code: 402, message: "Payment required", data: v2PaymentRequired };

describe("readMcpPaymentRequired", () => {
  it("reads structuredContent of an isError result (the spec's example shape)", () => {
    const result = {
      isError: true,
      structuredContent: v2PaymentRequired,
      content: text(v2PaymentRequired),
    };
    const offer = readMcpPaymentRequired(result, readContext());
    expect(offer?.transport).toBe("mcp");
    expect(offer?.protocol).toBe("x402-v2");
    expect(offer?.options[0]?.raw).toBe(v2Requirement);
  });

  it("falls back to JSON in content[0].text, marked as a price found in the tool's text", () => {
    const offer = readMcpPaymentRequired(
      { isError: true, content: text(v2PaymentRequired) },
      readContext(),
    );
    expect(offer?.options[0]?.amount).toBe(10000n);
    expect(offer?.priceInToolText).toBe(true);
  });

  it.each([
    ["structuredContent", { isError: true, structuredContent: v2PaymentRequired }],
    ["_meta x402/error", { isError: true, _meta: { "x402/error": wrapper }, content: text("x") }],
    [
      "the extension binding",
      { resultType: "payment_required", paymentRequired: v2PaymentRequired },
    ],
  ])("does not mark a price the server put in %s as found in text", (_name, result) => {
    const offer = readMcpPaymentRequired(
      { ...result, content: text(v2PaymentRequired) },
      readContext(),
    );
    expect(offer?.priceInToolText).toBeUndefined();
  });

  it.each([
    [
      "content[0].text in the official server's x402/error wrapper",
      { isError: true, content: text({ "x402/error": wrapper }) },
    ],
    [
      "structuredContent in the x402/error wrapper",
      { isError: true, structuredContent: { "x402/error": wrapper }, content: text("Payment") },
    ],
    [
      "_meta x402/error holding the PaymentRequired",
      { isError: true, _meta: { "x402/error": v2PaymentRequired }, content: text("Payment") },
    ],
    [
      "_meta x402/error in the wrapper's shape",
      { isError: true, _meta: { "x402/error": wrapper }, content: text("Payment") },
    ],
  ])("reads the PaymentRequired from %s", (_name, result) => {
    expect(readMcpPaymentRequired(result, readContext())?.options[0]?.raw).toEqual(v2Requirement);
  });

  it("reads the extension binding's payment_required result", () => {
    const result = { resultType: "payment_required", paymentRequired: v2PaymentRequired };
    expect(readMcpPaymentRequired(result, readContext())?.options).toHaveLength(1);
  });

  it.each([
    ["a success", { content: text(v2PaymentRequired) }],
    [
      "an ordinary tool error",
      { isError: true, content: [{ type: "text", text: "city not found" }] },
    ],
    ["an error with JSON that is not x402", { isError: true, content: text({ x402Version: 2 }) }],
    ["an error with no content", { isError: true }],
    ["not an object", "nope"],
  ])("returns undefined for %s", (_name, result) => {
    expect(readMcpPaymentRequired(result, readContext())).toBeUndefined();
  });

  it.each([
    [
      "bad JSON that names x402Version",
      { isError: true, content: [{ type: "text", text: '{"x402Version":2,' }] },
      "not-json",
    ],
    [
      "oversized structuredContent",
      {
        isError: true,
        structuredContent: { ...v2PaymentRequired, pad: "x".repeat(MAX_INPUT_BYTES) },
      },
      "body-too-large",
    ],
    [
      "oversized text",
      { isError: true, content: text({ ...v2PaymentRequired, pad: "x".repeat(MAX_INPUT_BYTES) }) },
      "body-too-large",
    ],
    [
      "unpayable requirement",
      {
        isError: true,
        structuredContent: { ...v2PaymentRequired, accepts: [{ ...v2Requirement, amount: 1 }] },
      },
      "no-payable-option",
    ],
    [
      "payment_required without object",
      { resultType: "payment_required" },
      "malformed-payment-required",
    ],
  ])("refuses %s", (_name, result, code) => {
    expect(() => readMcpPaymentRequired(result, readContext())).toThrow(
      expect.objectContaining({ code }),
    );
  });
});

describe("readMcpSettleResponse", () => {
  const settled = {
    success: true,
    transaction: `0x${"12".repeat(32)}`,
    network: "eip155:84532",
    payer: "0x857b06519E91e3A54538791bDbb0E22373e36b66",
  };

  it("reads result._meta['x402/payment-response']", () => {
    expect(
      readMcpSettleResponse({ content: [], _meta: { "x402/payment-response": settled } }),
    ).toEqual(settled);
  });

  it("returns undefined when absent and refuses a malformed one", () => {
    expect(readMcpSettleResponse({ content: [] })).toBeUndefined();
    expect(readMcpSettleResponse(null)).toBeUndefined();
    expect(() =>
      readMcpSettleResponse({ _meta: { "x402/payment-response": { success: "yes" } } }),
    ).toThrow(expect.objectContaining({ code: "malformed-settle-response" }));
  });
});
