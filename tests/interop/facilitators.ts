import { x402Facilitator } from "@x402/core/facilitator";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import type { settle as settleV1 } from "x402/facilitator";
import type { LocalChain } from "../../demo/chain";

/** What the facilitators need of demo/chain: its facilitator account, a client for it, the chain id. */
export type FacilitatorChain = Pick<LocalChain, "walletClient" | "accounts" | "chainId">;

/** The facilitator account's wallet client (it has the read actions too): what both official facilitators drive. */
export function facilitatorClient(chain: FacilitatorChain) {
  return chain.walletClient(chain.accounts.facilitator);
}

/** x402 1.2's `verify`/`settle` take its `Signer`: a viem wallet client with public actions. */
export type V1Signer = Parameters<typeof settleV1>[0];

export function v1Signer(chain: FacilitatorChain): V1Signer {
  return facilitatorClient(chain);
}

/**
 * The official v2 facilitator (`x402Facilitator` + the exact EVM scheme) in-process, signing and
 * paying gas with demo/chain's facilitator account on `chain`'s CAIP-2 network.
 */
export function v2Facilitator(chain: FacilitatorChain): x402Facilitator {
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
