import { createPublicClient, getAddress, type Hex, http, parseAbiItem } from "viem";
import type { SignedTransfer } from "./settlement-check";

const AUTHORIZATION_USED = parseAbiItem(
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
);
const AUTHORIZATION_STATE = parseAbiItem(
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
);

/** What the chain says, at its latest block, about whether an authorization can still move money. */
export type AuthorizationFate =
  /**
   * Still collectable: the chain's clock, `chainTime` (the block's timestamp,
   * seconds), has not reached `validBefore`, and the nonce is unused.
   */
  | { kind: "open"; chainTime: bigint }
  /** Used: a transfer went through with it (in `transaction`, when the wallet found it). */
  | { kind: "used"; transaction?: Hex }
  /**
   * Never collectable again: the latest block is at or past `validBefore` (so is
   * every later one) and the nonce was unused at that block.
   */
  | { kind: "expired-unused"; blockNumber: bigint };

/**
 * Asks the chain (the node must be of the authorization's chain), not the
 * local clock, whether `validBefore` has passed: the
 * token compares it with the block's timestamp, and a wallet's clock may run
 * ahead. The nonce is read at that very block, so "unused" cannot be
 * overtaken by a later block.
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
  const head = await client.getBlock({ blockTag: "latest" });
  const from = getAddress(transfer.from);
  const used = await client.readContract({
    address: transfer.token,
    abi: [AUTHORIZATION_STATE],
    functionName: "authorizationState",
    args: [from, transfer.nonce],
    blockNumber: head.number,
  });
  if (!used) {
    return head.timestamp >= transfer.validBefore
      ? { kind: "expired-unused", blockNumber: head.number }
      : { kind: "open", chainTime: head.timestamp };
  }
  // Where it was used: the token's own event, searched back over recent blocks.
  const span = options.searchBlocks ?? 100_000n;
  const logs = await client
    .getLogs({
      address: transfer.token,
      event: AUTHORIZATION_USED,
      args: { authorizer: from, nonce: transfer.nonce },
      fromBlock: head.number > span ? head.number - span : 0n,
      toBlock: head.number,
    })
    .catch(() => []);
  const transaction = logs[0]?.transactionHash ?? undefined;
  return transaction ? { kind: "used", transaction } : { kind: "used" };
}
