import type { Address } from "viem";
import type { LocalChain } from "../../demo/chain";

export interface BalanceChange<R> {
  result: R;
  /** How much `payer`'s token balance went down. */
  paid: bigint;
  /** How much `payTo`'s token balance went up. */
  received: bigint;
}

/** Runs `action` (a settlement) and reads on chain how it moved the token between the two. */
export async function watchBalances<R>(
  chain: Pick<LocalChain, "balanceOf">,
  payer: Address,
  payTo: Address,
  action: () => Promise<R>,
): Promise<BalanceChange<R>> {
  const both = () => Promise.all([chain.balanceOf(payer), chain.balanceOf(payTo)]);
  const [payerBefore, payToBefore] = await both();
  const result = await action();
  const [payerAfter, payToAfter] = await both();
  return { result, paid: payerBefore - payerAfter, received: payToAfter - payToBefore };
}
