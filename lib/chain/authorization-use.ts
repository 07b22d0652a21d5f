import { createPublicClient, getAddress, type Hex, http, parseAbiItem } from "viem";
import type { SignedTransfer } from "./settlement-check";

const AUTHORIZATION_USED = parseAbiItem(
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
);
const AUTHORIZATION_STATE = parseAbiItem(
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
);

/**
 * What the chain says about whether an authorization can still move money:
 * "expired-unused" only at a finalized block, which no reorganization undoes.
 */
export type AuthorizationFate =
  /**
   * Not decided yet: the nonce is unused, and the finalized block's clock,
   * `chainTime` (its timestamp, seconds), has not reached `validBefore`.
   */
  | { kind: "open"; chainTime: bigint }
  /** Used: a transfer went through with it (in `transaction`, when the wallet found it). */
  | { kind: "used"; transaction?: Hex }
  /**
   * Never collectable again: a finalized block is at or past `validBefore` (so is
   * every later one) and the nonce was unused at that block.
   */
  | { kind: "expired-unused"; blockNumber: bigint };

/**
 * Asks the chain (the node must be of the authorization's chain), not the
 * local clock, whether `validBefore` has passed: the token compares it with
 * the block's timestamp, and a wallet's clock may run ahead. "Unused" is read
 * at the finalized block that is past it: no later block can use it, and a
 * reorganization cannot bring back one that did, so a charge given back on
 * its word is never collected after all. A use is taken from the latest
 * block: it only keeps the charge.
 */
export async function authorizationFate(
  url: string,
  transfer: SignedTransfer & { validBefore: bigint; chainId: number },
  options: { fetchFn?: typeof fetch; searchBlocks?: bigint } = {},
): Promise<AuthorizationFate> {
  const client = createPublicClient({
    transport: http(url, {
      timeout: 8_000,
      retryCount: 0,
      ...(options.fetchFn ? { fetchFn: options.fetchFn } : {}),
    }),
  });
  // A node of another chain (a mistyped endpoint) would call every authorization unused.
  const chainId = await client.getChainId();
  if (chainId !== transfer.chainId) {
    throw new Error(`${url} serves chain ${chainId}, not chain ${transfer.chainId}`);
  }
  const from = getAddress(transfer.from);
  const usedAt = (blockNumber: bigint) =>
    client.readContract({
      address: transfer.token,
      abi: [AUTHORIZATION_STATE],
      functionName: "authorizationState",
      args: [from, transfer.nonce],
      blockNumber,
    });
  // Where it was used: the token's own event, searched back over recent blocks.
  const usedIn = async (upTo: bigint): Promise<AuthorizationFate> => {
    const span = options.searchBlocks ?? 100_000n;
    const logs = await client
      .getLogs({
        address: transfer.token,
        event: AUTHORIZATION_USED,
        args: { authorizer: from, nonce: transfer.nonce },
        fromBlock: upTo > span ? upTo - span : 0n,
        toBlock: upTo,
      })
      .catch(() => []);
    const transaction = logs[0]?.transactionHash ?? undefined;
    return transaction ? { kind: "used", transaction } : { kind: "used" };
  };
  const finalized = await client.getBlock({ blockTag: "finalized" });
  if (finalized.timestamp >= transfer.validBefore) {
    return (await usedAt(finalized.number))
      ? usedIn(finalized.number)
      : { kind: "expired-unused", blockNumber: finalized.number };
  }
  const head = await client.getBlockNumber({ cacheTime: 0 });
  return (await usedAt(head)) ? usedIn(head) : { kind: "open", chainTime: finalized.timestamp };
}
