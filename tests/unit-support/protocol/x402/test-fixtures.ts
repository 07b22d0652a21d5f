import type { OfferResource } from "../../../../lib/protocol/offer";
import { createRegistry } from "../../../../lib/protocol/rails/registry";
import type { ReadContext } from "../../../../lib/protocol/x402/payment-required";

/** Shared 402 shapes for the x402 tests, copied from the official packages' types and spec. */
export const BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
export const PAY_TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";

export const v1Requirement = {
  scheme: "exact",
  network: "base-sepolia",
  maxAmountRequired: "10000",
  resource: "http://127.0.0.1:4021/weather",
  description: "Weather for one city",
  mimeType: "application/json",
  payTo: PAY_TO,
  maxTimeoutSeconds: 60,
  asset: BASE_SEPOLIA_USDC,
  extra: { name: "USDC", version: "2" },
};

export const v1Body = {
  x402Version: 1,
  error: "X-PAYMENT header is required",
  accepts: [v1Requirement],
};

/**
 * An x402 v1 price whose first option (Base mainnet, "Free sample") is on a
 * network a Base Sepolia-only policy never pays; the second describes itself apart.
 */
export const v1TwoOptionsBody = {
  x402Version: 1,
  accepts: [
    {
      ...v1Requirement,
      network: "base",
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      extra: { name: "USD Coin", version: "2" },
      description: "Free sample",
    },
    { ...v1Requirement, description: "Full report, 5000 pages" },
  ],
};

export const v2Requirement = {
  scheme: "exact",
  network: "eip155:84532" as const,
  amount: "10000",
  asset: BASE_SEPOLIA_USDC,
  payTo: PAY_TO,
  maxTimeoutSeconds: 60,
  extra: { name: "USDC", version: "2" },
};

export const v2PaymentRequired = {
  x402Version: 2,
  error: "Payment required",
  resource: {
    url: "http://127.0.0.1:4021/weather",
    description: "Weather for one city",
    mimeType: "application/json",
  },
  accepts: [v2Requirement],
  extensions: { bazaar: { info: { input: { type: "http" } } } },
};

export const httpResource: OfferResource = {
  kind: "http",
  method: "GET",
  url: "http://127.0.0.1:4021/weather",
};

export function readContext(extraTokens: readonly unknown[] = []): ReadContext {
  return {
    receiver: "http://127.0.0.1:4021",
    resource: httpResource,
    registry: createRegistry(extraTokens),
  };
}
