import { exportJWK, generateKeyPair } from "jose";
import { isEvmRail, type OfferedRail, type Rail } from "../../../../lib/protocol/envelope/claims";
import type { ConfirmationInput } from "../../../../lib/protocol/envelope/confirmation";
import type { Descriptor } from "../../../../lib/protocol/envelope/descriptor";
import type { ProofInput } from "../../../../lib/protocol/envelope/proof";
import type { QuoteInput, VerifiedQuote } from "../../../../lib/protocol/envelope/quote";
import type { ReceiverKey } from "../../../../lib/protocol/envelope/receiver-key";
import { type WalletSigner, walletSigner } from "../../../../lib/protocol/envelope/wallet-key";

/** Fixed clock for tests: every token below is issued at T. */
export const T = 1_760_000_000;
export const NOW = new Date(T * 1000);
export const ORIGIN = "https://api.example.com";

export const RAIL: Rail = {
  rail: "x402-exact",
  network: "eip155:8453",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  amount: "5000",
  decimals: 6,
  symbol: "USDC",
  payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
  maxTimeoutSeconds: 60,
  extra: { name: "USD Coin", version: "2" },
};

/**
 * USDC on Solana, as x402 servers offer it (base58 mint and payTo, no EIP-712 domain): a
 * rail this wallet cannot pay, for the same 0.005 USD as RAIL.
 */
export const SOLANA_RAIL: OfferedRail = {
  rail: "x402-exact",
  network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  asset: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  amount: "5000",
  decimals: 6,
  symbol: "USDC",
  payTo: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
  maxTimeoutSeconds: 60,
  extra: { feePayer: "2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4" },
};

/** `descriptor` listing `rails` too, as a descriptor lists a rail (network, asset, payTo). */
export function alsoListing(descriptor: Descriptor, ...rails: OfferedRail[]): Descriptor {
  const listed = rails.map(({ network, asset, payTo }) => ({
    rail: "x402-exact" as const,
    network,
    asset,
    payTo,
  }));
  return { ...descriptor, rails: [...descriptor.rails, ...listed] };
}

export interface TestReceiver {
  key: ReceiverKey;
  descriptor: Descriptor;
}

/** A receiver with an Ed25519 key (kid `r1`) and a descriptor listing RAIL. */
export async function makeReceiver(id = ORIGIN, kid = "r1"): Promise<TestReceiver> {
  const pair = await generateKeyPair("EdDSA", { extractable: true });
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kty: "OKP" as const, kid };
  return {
    key: { kid, alg: "EdDSA", key: pair.privateKey },
    descriptor: {
      stipendex: "descriptor/0.1",
      id,
      name: "Example Search",
      keys: { keys: [publicJwk] },
      rails: [{ rail: "x402-exact", network: RAIL.network, asset: RAIL.asset, payTo: RAIL.payTo }],
      profiles: ["L1", "L2"],
    },
  };
}

export async function makeWallet(alg: "EdDSA" | "ES256"): Promise<WalletSigner> {
  return walletSigner(await generateKeyPair(alg, { extractable: true }));
}

export function quoteInput(overrides: Partial<QuoteInput> = {}): QuoteInput {
  return {
    iss: ORIGIN,
    jti: "q-1",
    iat: T,
    exp: T + 120,
    resource: { http: { method: "GET", url: `${ORIGIN}/search?q=x` } },
    description: "One web search",
    total: { amount: "0.005", currency: "USD" },
    rails: [RAIL],
    ...overrides,
  };
}

export function confirmationInput(quote: VerifiedQuote): ConfirmationInput {
  return {
    aud: quote.claims.iss,
    jti: "c-1",
    iat: T,
    exp: T + 120,
    qh: quote.hash,
    origin: "https://agent.example",
    decision: "approve",
    mode: "popup",
    humanPresent: true,
    shown: {
      description: quote.claims.description,
      total: quote.claims.total,
      remaining: { day: "9.995 USD" },
    },
  };
}

export function proofInput(quote: VerifiedQuote, ch: string, from: `0x${string}`): ProofInput {
  const rail = quote.claims.rails.find(isEvmRail) ?? RAIL;
  return {
    aud: quote.claims.iss,
    jti: "p-1",
    iat: T,
    exp: T + 60,
    qh: quote.hash,
    ch,
    rail,
    payment: {
      signature: `0x${"ab".repeat(65)}`,
      authorization: {
        from,
        to: rail.payTo,
        value: rail.amount,
        validAfter: "0",
        validBefore: String(T + rail.maxTimeoutSeconds),
        nonce: `0x${"11".repeat(32)}`,
      },
    },
  };
}
