import type { PaymentOption } from "../../../lib/protocol/offer";
import type { PolicySettings } from "../../../lib/wallet/policy-settings";

export const BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

/** 0.005 USDC on Base Sepolia, the way a read price's option comes out; `amount` and others overridable. */
export function usdcOption(overrides: Partial<PaymentOption> = {}): PaymentOption {
  return {
    scheme: "exact",
    network: "eip155:84532",
    chainId: 84532,
    asset: BASE_SEPOLIA_USDC,
    amount: 5000n,
    decimals: 6,
    symbol: "USDC",
    payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
    maxTimeoutSeconds: 60,
    eip712: { name: "USDC", version: "2" },
    raw: {},
    ...overrides,
  };
}

/** Settings that count Base Sepolia USDC as USD, with no caps and no site budgets. */
export const USDC_AS_USD: PolicySettings = {
  globalCaps: {},
  origins: {},
  receivers: { allow: [], deny: [] },
  networks: ["eip155:84532"],
  assets: [
    {
      network: "eip155:84532",
      asset: BASE_SEPOLIA_USDC,
      decimals: 6,
      symbol: "USDC",
      currency: "USD",
    },
  ],
};
