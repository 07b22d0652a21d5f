import { x402Facilitator } from "@x402/core/facilitator";
import type { FacilitatorClient } from "@x402/core/server";
import type { SupportedResponse } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import type { Caip2 } from "../../lib/protocol/offer";
import type { SettlementClient } from "../receiver/settle";

/**
 * The official v2 facilitator (x402Facilitator + the exact EVM scheme) running in-process,
 * wrapped as the FacilitatorClient a resource server expects.
 */
export function inProcessV2Facilitator(
  client: SettlementClient,
  network: Caip2,
): FacilitatorClient {
  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, {
    signer: toFacilitatorEvmSigner({
      address: client.account.address,
      readContract: (args) =>
        client.readContract(args as Parameters<typeof client.readContract>[0]),
      verifyTypedData: (args) =>
        client.verifyTypedData(args as Parameters<typeof client.verifyTypedData>[0]),
      writeContract: (args) =>
        client.writeContract(args as Parameters<typeof client.writeContract>[0]),
      sendTransaction: (args) => client.sendTransaction(args),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
      getCode: (args) => client.getCode(args),
    }),
    networks: network,
  });
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    // Networks it lists are the CAIP-2 ids registered above, which is what the type says.
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
}
