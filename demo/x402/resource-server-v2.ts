import { type FacilitatorClient, x402ResourceServer } from "@x402/core/server";
import { registerExactEvmScheme } from "@x402/evm/exact/server";

/** A v2 resource server that prices and checks `exact` EVM payments through `facilitator`. */
export function v2ResourceServer(facilitator: FacilitatorClient): x402ResourceServer {
  const server = new x402ResourceServer(facilitator);
  registerExactEvmScheme(server);
  return server;
}
