import type { Address, Caip2 } from "../offer";

export interface Token {
  network: Caip2;
  address: Address;
  symbol: string;
  decimals: number;
  /** EIP-712 domain name and version the contract signs with. */
  eip712: { name: string; version: string };
  /**
   * Another domain a server may name for it, where sources disagree on the
   * contract's own: signed as named, never taken when the server names none.
   */
  alsoNamed?: readonly { name: string; version: string }[];
  /** What one whole unit is worth, for display ("USD" for USDC and USDT0). */
  currency?: string;
}

function usdc(network: Caip2, address: Address, name = "USD Coin"): Token {
  return {
    network,
    address,
    symbol: "USDC",
    decimals: 6,
    eip712: { name, version: "2" },
    currency: "USD",
  };
}

/** Known EIP-3009 tokens. Local-chain tokens are deployed per run and come in as extras. */
export const KNOWN_TOKENS: readonly Token[] = [
  usdc("eip155:8453", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"),
  // Base Sepolia USDC signs as "USDC", not "USD Coin".
  usdc("eip155:84532", "0x036CbD53842c5426634e7929541eC2318f3dCF7e", "USDC"),
  usdc("eip155:1", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"),
  usdc("eip155:137", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"),
  usdc("eip155:42161", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"),
  usdc("eip155:43114", "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E"),
  usdc("eip155:43113", "0x5425890298aed601595a70AB815c96711a31Bc65"),
  {
    network: "eip155:196",
    address: "0x779Ded0c9e1022225f8E0630b35a9b54bE713736",
    symbol: "USDT0",
    decimals: 6,
    // Domain as seed 004 (EVIDIQ on X Layer) states it; the token names itself "USD₮0", the
    // name other X Layer x402 servers give its domain.
    eip712: { name: "USDTToken", version: "1" },
    alsoNamed: [{ name: "USD₮0", version: "1" }],
    currency: "USD",
  },
];
