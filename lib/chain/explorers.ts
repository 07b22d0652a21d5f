import type { Caip2 } from "../protocol/offer";

/** Where people look a transaction up, per network the wallet pays on. */
const EXPLORERS: Readonly<Partial<Record<Caip2, string>>> = {
  "eip155:8453": "https://basescan.org/tx/",
  "eip155:84532": "https://sepolia.basescan.org/tx/",
  "eip155:1": "https://etherscan.io/tx/",
  "eip155:137": "https://polygonscan.com/tx/",
  "eip155:42161": "https://arbiscan.io/tx/",
  "eip155:43114": "https://snowtrace.io/tx/",
  "eip155:43113": "https://testnet.snowtrace.io/tx/",
  "eip155:196": "https://www.oklink.com/xlayer/tx/",
};

/** The explorer page of `transaction` on `network`, for networks with a known explorer. */
export function explorerUrl(network: string, transaction: string): string | undefined {
  const base = EXPLORERS[network as Caip2];
  return base && /^0x[0-9a-fA-F]{64}$/.test(transaction) ? `${base}${transaction}` : undefined;
}
