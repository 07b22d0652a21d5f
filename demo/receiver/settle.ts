import {
  type Account,
  type Chain,
  getAddress,
  type PublicActions,
  type Transport,
  type WalletClient,
} from "viem";
import type { ProofClaims } from "../../lib/protocol/envelope/claims";
import type { Address, Hex } from "../../lib/protocol/offer";
import { eip3009TokenAbi, revertReason } from "../chain";
import { SettlementFailedError } from "./errors";

/** The facilitator: a funded account that sends transferWithAuthorization and reads the chain. */
export type SettlementClient = WalletClient<Transport, Chain, Account> &
  PublicActions<Transport, Chain>;

/**
 * Settle an EIP-3009 authorization on `token`: simulate first so a revert comes back with the
 * token's own reason and costs no gas, then send and wait for the receipt.
 */
export async function settleAuthorization(
  client: SettlementClient,
  token: Address,
  payment: ProofClaims["payment"],
): Promise<{ transaction: Hex }> {
  const { authorization: a, signature } = payment;
  const args = [
    getAddress(a.from),
    getAddress(a.to),
    BigInt(a.value),
    BigInt(a.validAfter),
    BigInt(a.validBefore),
    // The Proof schema already checked these are 0x hex of the right length.
    a.nonce as Hex,
    signature as Hex,
  ] as const;
  try {
    const { request } = await client.simulateContract({
      address: token,
      abi: eip3009TokenAbi,
      functionName: "transferWithAuthorization",
      args,
      account: client.account,
    });
    const transaction = await client.writeContract(request);
    const receipt = await client.waitForTransactionReceipt({ hash: transaction });
    if (receipt.status !== "success") {
      throw new SettlementFailedError(
        "settlement_reverted",
        `transferWithAuthorization ${transaction} reverted on chain`,
      );
    }
    return { transaction };
  } catch (error) {
    if (error instanceof SettlementFailedError) throw error;
    const reason = revertReason(error);
    throw new SettlementFailedError(
      reason ?? "settlement_failed",
      `transferWithAuthorization from ${a.from} failed: ${reason ?? firstLine(error)}`,
      { cause: error },
    );
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}
