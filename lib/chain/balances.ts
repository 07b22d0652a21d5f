import { BaseError, createPublicClient, erc20Abi, http } from "viem";
import type { Address, Caip2 } from "../protocol/offer";

/** A token the wallet holds or may hold: where it is and how to show its amounts. */
export interface HeldToken {
  network: Caip2;
  asset: Address;
  symbol: string;
  decimals: number;
}

/** A token's balance, or why it could not be read; never a guess. */
export type TokenBalance = HeldToken &
  ({ amount: bigint; readAt: number } | { amount?: undefined; problem: string });

/** How long one network may take to answer before its balances are given up on, unless told. */
const READ_TIMEOUT_MS = 8_000;

/**
 * Reads `owner`'s balance of each token, one batched JSON-RPC request per
 * network (`balanceOf`, ERC-20). A network without an endpoint, or one that
 * fails, gives each of its tokens a `problem` in words instead of an amount.
 */
export async function readBalances(
  owner: Address,
  tokens: readonly HeldToken[],
  endpointFor: (network: Caip2) => string | undefined,
  options: { fetchFn?: typeof fetch; now?: () => number; timeoutMs?: number } = {},
): Promise<TokenBalance[]> {
  const now = options.now ?? Date.now;
  const networks = [...new Set(tokens.map((token) => token.network))];
  const read = await Promise.all(
    networks.map(async (network): Promise<TokenBalance[]> => {
      const held = tokens.filter((token) => token.network === network);
      const url = endpointFor(network);
      if (!url) {
        return held.map((token) => ({ ...token, problem: `No RPC endpoint for ${network}` }));
      }
      const client = createPublicClient({
        transport: http(url, {
          batch: true,
          timeout: options.timeoutMs ?? READ_TIMEOUT_MS,
          retryCount: 0,
          ...(options.fetchFn ? { fetchFn: options.fetchFn } : {}),
        }),
      });
      return Promise.all(
        held.map(async (token): Promise<TokenBalance> => {
          try {
            const amount = await client.readContract({
              address: token.asset,
              abi: erc20Abi,
              functionName: "balanceOf",
              args: [owner],
            });
            return { ...token, amount, readAt: now() };
          } catch (error) {
            return { ...token, problem: unreadable(url, error) };
          }
        }),
      );
    }),
  );
  const byNetwork = new Map(networks.map((network, i) => [network, read[i] ?? []]));
  // In the order asked for.
  return tokens.map((token) => {
    const found = byNetwork
      .get(token.network)
      ?.find((balance) => balance.asset.toLowerCase() === token.asset.toLowerCase());
    return found ?? { ...token, problem: "Not read" };
  });
}

function unreadable(url: string, error: unknown): string {
  const detail =
    error instanceof BaseError
      ? error.shortMessage
      : error instanceof Error
        ? error.message
        : String(error);
  return `Could not read the balance from ${new URL(url).host}: ${detail}`;
}
