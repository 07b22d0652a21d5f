import { decodePaymentSignatureHeader } from "@x402/core/http";
import { parsePaymentPayload } from "@x402/core/schemas";
import {
  declarePaymentIdentifierExtension,
  extractAndValidatePaymentIdentifier,
  validatePaymentIdentifierRequirement,
} from "@x402/extensions/payment-identifier";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { decodePayment } from "x402/schemes";
import { PaymentPayloadSchema } from "x402/types";
import {
  readContext,
  v1Body,
  v2PaymentRequired,
  v2Requirement,
} from "../../../tests/unit-support/protocol/x402/test-fixtures";
import { signTransferWithAuthorization } from "../rails/eip3009";
import { readHttp402 } from "./http";
import { buildPaymentPayload, mcpPaymentMeta, paymentHeader } from "./payment";
import { encodeBase64Json } from "./wire";

// Anvil's second well-known dev key: a test key, never money.
const account = privateKeyToAccount(
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
);
const NOW = Math.floor(Date.now() / 1000);

async function pay(headers: Record<string, string>, body: string) {
  const offer = readHttp402({ headers: new Headers(headers), body }, readContext());
  const option = offer.options[0];
  if (!option) throw new Error("fixture offers nothing");
  const signed = await signTransferWithAuthorization(account, option, { now: NOW });
  return { offer, option, signed, payment: buildPaymentPayload(offer, option, signed) };
}

describe("buildPaymentPayload + paymentHeader (v2)", () => {
  it("writes a PAYMENT-SIGNATURE that @x402/core decodes and validates, echoing accepted verbatim", async () => {
    const { signed, payment } = await pay(
      { "payment-required": encodeBase64Json(v2PaymentRequired) },
      "",
    );
    const header = paymentHeader(payment);
    expect(header.name).toBe("PAYMENT-SIGNATURE");
    const decoded = decodePaymentSignatureHeader(header.value);
    expect(parsePaymentPayload(decoded).success).toBe(true);
    expect(decoded).toEqual({
      x402Version: 2,
      resource: v2PaymentRequired.resource,
      accepted: v2Requirement,
      payload: signed,
      extensions: v2PaymentRequired.extensions,
    });
  });

  it("leaves out resource and extensions the server did not send", async () => {
    const { resource: _r, extensions: _e, ...bare } = v2PaymentRequired;
    const { payment } = await pay({ "payment-required": encodeBase64Json(bare) }, "");
    expect(Object.keys(payment).sort()).toEqual(["accepted", "payload", "x402Version"]);
  });

  // Black-box review: a server requiring a payment identifier refused every payment the wallet
  // signed ("payment_identifier_required"), each charged until it expired.
  it("gives a payment identifier a server requires, as @x402/extensions checks it", async () => {
    const required = {
      ...v2PaymentRequired,
      extensions: {
        ...v2PaymentRequired.extensions,
        "payment-identifier": declarePaymentIdentifierExtension(true),
      },
    };
    const { signed, payment } = await pay({ "payment-required": encodeBase64Json(required) }, "");
    const decoded = decodePaymentSignatureHeader(paymentHeader(payment).value);
    expect(validatePaymentIdentifierRequirement(decoded, true)).toEqual({ valid: true });
    const { id, validation } = extractAndValidatePaymentIdentifier(decoded);
    expect(validation).toEqual({ valid: true });
    expect(id).toBe(`pay_${signed.authorization.nonce.slice(2)}`);
    // The other extensions as the server sent them.
    expect({ ...decoded.extensions, "payment-identifier": undefined }).toEqual({
      ...v2PaymentRequired.extensions,
      "payment-identifier": undefined,
    });
  });

  it("puts the same object in MCP _meta['x402/payment']", async () => {
    const { payment } = await pay({ "payment-required": encodeBase64Json(v2PaymentRequired) }, "");
    expect(mcpPaymentMeta(payment)).toEqual({ "x402/payment": payment });
  });
});

describe("buildPaymentPayload + paymentHeader (v1)", () => {
  it("writes an X-PAYMENT that the v1 x402 package decodes and its schema accepts", async () => {
    const { signed, payment } = await pay({}, JSON.stringify(v1Body));
    const header = paymentHeader(payment);
    expect(header.name).toBe("X-PAYMENT");
    const decoded = decodePayment(header.value);
    expect(PaymentPayloadSchema.safeParse(decoded).success).toBe(true);
    expect(decoded).toEqual({
      x402Version: 1,
      scheme: "exact",
      network: "base-sepolia",
      payload: signed,
    });
    expect(parsePaymentPayload(decoded).success).toBe(true);
  });
});

describe("buildPaymentPayload refusals", () => {
  it("refuses an option that is not one of the offer's", async () => {
    const { offer, signed, option } = await pay({}, JSON.stringify(v1Body));
    expect(() => buildPaymentPayload(offer, { ...option }, signed)).toThrow(
      expect.objectContaining({ code: "option-not-offered" }),
    );
    const { x402: _x, ...notX402 } = offer;
    expect(() => buildPaymentPayload(notX402, option, signed)).toThrow(/not an x402 offer/);
  });
});
