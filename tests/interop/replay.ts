import type { x402Facilitator } from "@x402/core/facilitator";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { Address } from "viem";
import { expect } from "vitest";
import type { LocalChain } from "../../demo/chain";
import { watchBalances } from "./balances";

/** FiatToken's own wording, which demo/chain's token and Base Sepolia USDC both revert with. */
export const USED_OR_CANCELED = "FiatTokenV2_2: authorization is used or canceled";

/**
 * Settles an already settled payment again through the v2 facilitator: it must fail with the
 * token's own revert reason and move no tokens.
 */
export async function expectV2ReplayRefused(
  chain: LocalChain,
  facilitator: x402Facilitator,
  payment: PaymentPayload,
  requirement: PaymentRequirements,
): Promise<void> {
  const payer = payment.payload.authorization as { from: Address };
  const { result, ...moved } = await watchBalances(
    chain,
    payer.from,
    requirement.payTo as Address,
    () => facilitator.settle(payment, requirement),
  );
  expect(result).toMatchObject({
    success: false,
    errorReason: "invalid_exact_evm_nonce_already_used",
    transaction: "",
  });
  expect(result.errorMessage).toContain(USED_OR_CANCELED);
  expect(moved).toEqual({ paid: 0n, received: 0n });
}
