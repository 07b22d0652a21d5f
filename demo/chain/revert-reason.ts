import { BaseError, ContractFunctionRevertedError } from "viem";

/**
 * The Solidity revert string of a failed viem contract call (`simulateContract`, `readContract`,
 * `writeContract`), or undefined when the failure was something else (network, gas, no reason).
 */
export function revertReason(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError ? reverted.reason : undefined;
}
