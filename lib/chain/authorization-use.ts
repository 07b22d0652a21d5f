import {
  BaseError,
  BlockNotFoundError,
  getAddress,
  type Hex,
  parseAbiItem,
  RpcRequestError,
} from "viem";
import { client, type SignedTransfer } from "./settlement-check";

const AUTHORIZATION_USED = parseAbiItem(
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
);
const AUTHORIZATION_STATE = parseAbiItem(
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
);

/**
 * On a node that names no finalized block (an older client, a chain that does
 * not track finality), the block this far below the head is taken as final:
 * Ethereum finalizes 64 to 95 blocks behind its head (two epochs of 32
 * slots), and anvil's default is 64.
 */
export const FINAL_DEPTH_WITHOUT_TAG = 64n;

/**
 * What the chain says about whether an authorization can still move money:
 * "expired-unused" only once a final block is past it, which no reorganization undoes.
 */
export type AuthorizationFate =
  /**
   * Not decided yet: the nonce is unused, and the final block's clock,
   * `chainTime` (its timestamp, seconds), has not reached `validBefore`.
   */
  | { kind: "open"; chainTime: bigint }
  /** Used: a transfer went through with it (in `transaction`, when the wallet found it). */
  | { kind: "used"; transaction?: Hex }
  /**
   * Never collectable again: a final block is at or past `validBefore` (so is
   * every later one), and the nonce was unused at the head, `blockNumber`.
   */
  | { kind: "expired-unused"; blockNumber: bigint };

/** The node answered, but has no finalized block to give (an error reply, or none). */
const namesNoFinalized = (error: unknown) =>
  error instanceof BaseError &&
  error.walk((cause) => cause instanceof RpcRequestError || cause instanceof BlockNotFoundError) !==
    null;

/**
 * What a look reads of a node once, for every authorization it asks about:
 * its chain, a final block, and its head.
 */
export interface ChainView {
  chainId: number;
  /** A block no reorganization undoes: the finalized one, or FINAL_DEPTH_WITHOUT_TAG below the head. */
  final: { number: bigint; timestamp: bigint };
  /** Read after `final`, so at or above it: each nonce is read here. */
  head: bigint;
}

/**
 * Reads `url`'s chain id, final block and head. A node that answers that it
 * has no finalized block has the block FINAL_DEPTH_WITHOUT_TAG below its head
 * taken as final; one that does not answer fails.
 */
export async function viewChain(
  url: string,
  options: { fetchFn?: typeof fetch } = {},
): Promise<ChainView> {
  const node = client(url, options.fetchFn);
  const chainId = await node.getChainId();
  const final = await node.getBlock({ blockTag: "finalized" }).catch(async (error: unknown) => {
    if (!namesNoFinalized(error)) throw error;
    const head = await node.getBlockNumber({ cacheTime: 0 });
    return node.getBlock({
      blockNumber: head > FINAL_DEPTH_WITHOUT_TAG ? head - FINAL_DEPTH_WITHOUT_TAG : 0n,
    });
  });
  const head = await node.getBlockNumber({ cacheTime: 0 });
  // A head below the final block (a node behind the one that answered before) misses its blocks.
  if (head < final.number) {
    throw new Error(`${url} gave block ${head} as its head, below its final block ${final.number}`);
  }
  return { chainId, final: { number: final.number, timestamp: final.timestamp }, head };
}

/**
 * Asks the chain (the node must be of the authorization's chain), not the
 * local clock, whether `validBefore` has passed: the token compares it with
 * the block's timestamp, and a wallet's clock may run ahead. It has passed
 * for good once a final block's timestamp is at or past it: no block after
 * it, nor any that replaces one after it, has an earlier timestamp. The
 * nonce is read at the head, read after that block: unused there, no block
 * up to the final one used it (and those stay), and no later one can, so a
 * charge given back on its word is never collected after all. (The head
 * keeps its state on every node; a finalized block, hundreds of blocks back
 * on Base, is past what a node that is not an archive keeps.) A use seen at
 * the head only keeps the charge. `view` is the node's, read by viewChain
 * (once for many authorizations), or read here.
 */
export async function authorizationFate(
  url: string,
  transfer: SignedTransfer & { validBefore: bigint; chainId: number },
  options: { fetchFn?: typeof fetch; searchBlocks?: bigint; view?: ChainView } = {},
): Promise<AuthorizationFate> {
  const { chainId, final, head } = options.view ?? (await viewChain(url, options));
  // A node of another chain (a mistyped endpoint) would call every authorization unused.
  if (chainId !== transfer.chainId) {
    throw new Error(`${url} serves chain ${chainId}, not chain ${transfer.chainId}`);
  }
  const node = client(url, options.fetchFn);
  const from = getAddress(transfer.from);
  const used = await node.readContract({
    address: transfer.token,
    abi: [AUTHORIZATION_STATE],
    functionName: "authorizationState",
    args: [from, transfer.nonce],
    blockNumber: head,
  });
  if (!used) {
    return final.timestamp >= transfer.validBefore
      ? { kind: "expired-unused", blockNumber: head }
      : { kind: "open", chainTime: final.timestamp };
  }
  // Where it was used: the token's own event, searched back over recent blocks.
  const span = options.searchBlocks ?? 100_000n;
  const logs = await node
    .getLogs({
      address: transfer.token,
      event: AUTHORIZATION_USED,
      args: { authorizer: from, nonce: transfer.nonce },
      fromBlock: head > span ? head - span : 0n,
      toBlock: head,
    })
    .catch(() => []);
  const transaction = logs[0]?.transactionHash ?? undefined;
  return transaction ? { kind: "used", transaction } : { kind: "used" };
}
