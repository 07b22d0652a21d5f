import { x402Facilitator } from "@x402/core/facilitator";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import { publicActions } from "viem";
import type { settle as settleV1 } from "x402/facilitator";
import type { LocalChain } from "../../demo/chain";

/** The facilitator account's wallet client with read actions: what both official facilitators drive. */
export function facilitatorClient(chain: LocalChain) {
  return chain.walletClient(chain.accounts.facilitator).extend(publicActions);
}

/** x402 1.2's `verify`/`settle` take its `Signer`: a viem wallet client with public actions. */
export type V1Signer = Parameters<typeof settleV1>[0];

export function v1Signer(chain: LocalChain): V1Signer {
  // x402 1.2 types the client against an older viem's generics; the runtime object is exactly that client.
  return facilitatorClient(chain) as unknown as V1Signer;
}

/**
 * The official v2 facilitator (`x402Facilitator` + the exact EVM scheme) in-process, signing and
 * paying gas with demo/chain's facilitator account on `chain`'s CAIP-2 network.
 */
export function v2Facilitator(chain: LocalChain): x402Facilitator {
  const client = facilitatorClient(chain);
  const facilitator = new x402Facilitator();
  // The signer interface types its arguments loosely (abi: unknown[]); viem's are generic over the abi.
  type Args<F extends (...args: never[]) => unknown> = Parameters<F>[0];
  registerExactEvmScheme(facilitator, {
    signer: toFacilitatorEvmSigner({
      address: client.account.address,
      readContract: (args) => client.readContract(args as Args<typeof client.readContract>),
      verifyTypedData: (args) =>
        client.verifyTypedData(args as Args<typeof client.verifyTypedData>),
      writeContract: (args) => client.writeContract(args as Args<typeof client.writeContract>),
      sendTransaction: (args) => client.sendTransaction(args),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
      getCode: (args) => client.getCode(args),
    }),
    networks: `eip155:${chain.chainId}`,
  });
  return facilitator;
}
