import { describe, expect, it } from "vitest";
import {
  readContext,
  v2PaymentRequired,
  v2Requirement,
} from "../../../tests/unit-support/protocol/x402/test-fixtures";
import { readMcpPaymentRequired, readMcpSettleResponse } from "./mcp";
import { MAX_INPUT_BYTES } from "./wire";

const text = (value: unknown) => [{ type: "text", text: JSON.stringify(value) }];

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

  it("falls back to JSON in content[0].text", () => {
    const offer = readMcpPaymentRequired(
      { isError: true, content: text(v2PaymentRequired) },
      readContext(),
    );
    expect(offer?.options[0]?.amount).toBe(10000n);
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
