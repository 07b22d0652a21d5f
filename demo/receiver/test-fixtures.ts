import type { RailTemplate } from "./rail";

/** The demo's rail as unit tests use it: Base Sepolia USDC, paid to anvil's third dev account. */
export const TEST_RAIL: RailTemplate = {
  network: "eip155:84532",
  chainId: 84532,
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  decimals: 6,
  symbol: "USDC",
  payTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  maxTimeoutSeconds: 60,
  eip712: { name: "USDC", version: "2" },
};
