import { parsePaymentRequired, parsePaymentRequirements } from "@x402/core/schemas";
import { describe, expect, it } from "vitest";
import { PaymentRequirementsSchema } from "x402/types";
import { readPaymentRequired } from "../../lib/protocol/x402/payment-required";
import {
  BASE_SEPOLIA_USDC,
  RESOURCE_URL,
  readContext,
  v1Requirement,
  v2PaymentRequired,
  v2Requirement,
} from "./requirements";

const price = { amount: 12_345n, payTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" } as const;

describe("v1Requirement", () => {
  it("is a requirement x402 1.2's own schema accepts, with the amount as a decimal string", () => {
    const requirement = v1Requirement(price);
    expect(PaymentRequirementsSchema.parse(requirement)).toEqual(requirement);
    expect(requirement).toMatchObject({ maxAmountRequired: "12345", network: "base-sepolia" });
  });
});

describe("v2Requirement + v2PaymentRequired", () => {
  it("are what @x402/core's schemas accept", () => {
    const requirement = v2Requirement(price);
    expect(parsePaymentRequirements(requirement).success).toBe(true);
    expect(parsePaymentRequired(v2PaymentRequired(requirement)).success).toBe(true);
    expect(requirement).toMatchObject({ amount: "12345", network: "eip155:84532" });
  });
});

describe("readContext", () => {
  it("knows Base Sepolia USDC under its 'USDC' domain and names the serving origin", () => {
    const context = readContext();
    expect(context.receiver).toBe(new URL(RESOURCE_URL).origin);
    const offer = readPaymentRequired(v2PaymentRequired(v2Requirement(price)), "http", context);
    expect(offer.options[0]).toMatchObject({
      asset: BASE_SEPOLIA_USDC,
      amount: price.amount,
      eip712: { name: "USDC", version: "2" },
    });
  });
});
