import { describe, expect, it } from "vitest";
import { encodeBase64Json } from "../protocol/x402/wire";
import { readRefusal } from "./refusal";

describe("readRefusal", () => {
  it.each([
    [
      "a Stipendex HTTP 402 body",
      {
        code: 402,
        message: JSON.stringify({ error: "insufficient_funds", detail: "balance 0", quote: {} }),
      },
      "insufficient_funds: balance 0",
      "The receiver refused the payment: the paying address does not hold enough of the token.",
    ],
    [
      "a Stipendex MCP -32402",
      {
        code: -32402,
        message: "Payment required",
        data: { error: "quote_expired", detail: "quote_expired" },
      },
      "quote_expired",
      "The receiver refused the payment: its price (the Quote) had expired.",
    ],
    [
      "an x402 v1 body",
      {
        code: 402,
        message: JSON.stringify({
          x402Version: 1,
          error: "FiatTokenV2_2: invalid signature",
          accepts: [],
        }),
      },
      "FiatTokenV2_2: invalid signature",
      "The receiver refused the payment: the receiver could not verify the payment's signature.",
    ],
    [
      "an x402 v2 PAYMENT-REQUIRED header",
      {
        code: 402,
        message: "{}",
        data: {
          paymentRequired: encodeBase64Json({
            x402Version: 2,
            error: "FiatTokenV2_2: nonce already used",
            accepts: [],
          }),
        },
      },
      "FiatTokenV2_2: nonce already used",
      "The receiver refused the payment: this authorization was already used or canceled.",
    ],
    [
      "an x402 MCP isError result",
      {
        code: -32402,
        message: "Payment refused (x402)",
        data: [
          {
            type: "text",
            text: JSON.stringify({
              x402Version: 2,
              error: "FiatTokenV2_2: authorization is not yet valid",
            }),
          },
        ],
      },
      "FiatTokenV2_2: authorization is not yet valid",
      "The receiver refused the payment: the authorization was not valid yet.",
    ],
    [
      "an x402 MCP isError result in the official server's x402/error wrapper",
      {
        code: -32402,
        message: "Payment refused (x402)",
        data: [
          {
            type: "text",
            text: JSON.stringify({
              "x402/error": {
                code: 402,
                message: "Payment settlement failed",
                data: { x402Version: 2, error: "FiatTokenV2_2: invalid signature", accepts: [] },
              },
            }),
          },
        ],
      },
      "FiatTokenV2_2: invalid signature",
      "The receiver refused the payment: the receiver could not verify the payment's signature.",
    ],
    [
      "a body that says nothing readable",
      { code: 402, message: "Payment Required" },
      "Payment Required",
      "The receiver refused the payment.",
    ],
  ])(
    "reads %s: the receiver's words as said, their meaning plainly",
    (_what, error, said, plain) => {
      expect(readRefusal(error)).toEqual({ said, plain });
    },
  );
  it.each([
    ["invalid_network", "it does not take this payment on that network"],
    ["invalid_exact_evm_network_mismatch", "it does not take this payment on that network"],
    [
      "invalid_exact_evm_token_version_mismatch",
      "the token's signing details did not match the receiver's",
    ],
    ["invalid_exact_evm_authorization_value", "the amount was not the one it asked for"],
    [
      "invalid_exact_evm_transaction_simulation_failed",
      "the token's contract would not make the transfer",
    ],
    ["payment_identifier_required", "it wanted a payment id the wallet did not send"],
    ["unsupported_payload_type", "it does not take payments made this way"],
  ])("reads the x402 code %s plainly", (code, meaning) => {
    const error = { code: 402, message: "Payment required", data: { x402Version: 2, error: code } };
    expect(readRefusal(error)).toEqual({
      said: code,
      plain: `The receiver refused the payment: ${meaning}.`,
    });
  });
});
