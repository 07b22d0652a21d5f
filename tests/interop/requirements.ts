import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import type { Address } from "viem";
import type { PaymentRequirements as PaymentRequirementsV1 } from "x402/types";
import type { OfferResource } from "../../lib/protocol/offer";
import { createRegistry } from "../../lib/protocol/rails/registry";
import type { ReadContext } from "../../lib/protocol/x402/payment-required";

/** Base Sepolia USDC: the official v1 package only knows "base-sepolia" at this address. */
export const BASE_SEPOLIA_USDC: Address = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
export const RESOURCE_URL = "http://127.0.0.1:4021/weather";

export interface Price {
  amount: bigint;
  payTo: Address;
}

/** A v1 `accepts` entry as an x402 1.2 server writes it. */
export function v1Requirement({ amount, payTo }: Price): PaymentRequirementsV1 {
  return {
    scheme: "exact",
    network: "base-sepolia",
    maxAmountRequired: amount.toString(),
    resource: RESOURCE_URL,
    description: "Weather for one city",
    mimeType: "application/json",
    payTo,
    maxTimeoutSeconds: 60,
    asset: BASE_SEPOLIA_USDC,
    extra: { name: "USDC", version: "2" },
  };
}

/** A v2 requirement as an @x402 2.x server writes it. */
export function v2Requirement({ amount, payTo }: Price): PaymentRequirements {
  return {
    scheme: "exact",
    network: "eip155:84532",
    amount: amount.toString(),
    asset: BASE_SEPOLIA_USDC,
    payTo,
    maxTimeoutSeconds: 60,
    extra: { name: "USDC", version: "2" },
  };
}

export function v2PaymentRequired(requirement: PaymentRequirements): PaymentRequired {
  return {
    x402Version: 2,
    error: "Payment required",
    resource: {
      url: RESOURCE_URL,
      description: "Weather for one city",
      mimeType: "application/json",
    },
    accepts: [requirement],
  };
}

const resource: OfferResource = { kind: "http", method: "GET", url: RESOURCE_URL };

/** What the wallet knows about the 402 it reads: who served it, for what, and its token registry. */
export function readContext(): ReadContext {
  return { receiver: new URL(RESOURCE_URL).origin, resource, registry: createRegistry() };
}
