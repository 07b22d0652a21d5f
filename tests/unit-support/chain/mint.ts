import { publicActions } from "viem";
import { eip3009TokenAbi, type LocalChain } from "../../../demo/chain";
import type { Address } from "../../../lib/protocol/offer";

/** Mints `amount` of the local chain's token to `to`, and waits for it to be mined. */
export async function mintTo(chain: LocalChain, to: Address, amount: bigint): Promise<void> {
  const deployer = chain.walletClient(chain.accounts.deployer).extend(publicActions);
  await deployer.waitForTransactionReceipt({
    hash: await deployer.writeContract({
      address: chain.token.address,
      abi: eip3009TokenAbi,
      functionName: "mint",
      args: [to, amount],
    }),
  });
}
