import type { PaymentRequirements } from "@x402/core/types";
import { exportJWK, generateKeyPair } from "jose";
import { type Address, formatUnits, type LocalAccount } from "viem";
import { isEvmRail, type Rail } from "../../lib/protocol/envelope/claims";
import { signConfirmation } from "../../lib/protocol/envelope/confirmation";
import { checkDescriptor, type Descriptor } from "../../lib/protocol/envelope/descriptor";
import { objectHash } from "../../lib/protocol/envelope/object-hash";
import { signProof } from "../../lib/protocol/envelope/proof";
import type { QuoteInput, VerifiedQuote } from "../../lib/protocol/envelope/quote";
import { quoteToOffer } from "../../lib/protocol/envelope/quote-to-offer";
import type { ReceiverKey } from "../../lib/protocol/envelope/receiver-key";
import { type WalletSigner, walletSigner } from "../../lib/protocol/envelope/wallet-key";
import { signTransferWithAuthorization } from "../../lib/protocol/rails/eip3009";
import { RESOURCE_URL } from "./requirements";

/** The receiver id: an origin, plain http allowed on loopback. */
export const RECEIVER_ID = new URL(RESOURCE_URL).origin;
/** The agent page the wallet saw make the call. */
export const AGENT_ORIGIN = "https://agent.example";

export interface Receiver {
  key: ReceiverKey;
  /** Checked as the wallet checks a fetched descriptor. */
  descriptor: Descriptor;
}

/** An x402-exact rail for a 6-decimal USDC-like token with the given EIP-712 domain. */
export function exactRail(
  token: { address: Address; name: string; version: string },
  amount: bigint,
  payTo: Address,
  chainId: number,
): Rail {
  return {
    rail: "x402-exact",
    network: `eip155:${chainId}`,
    asset: token.address,
    amount: amount.toString(),
    decimals: 6,
    symbol: "USDC",
    payTo,
    maxTimeoutSeconds: 60,
    extra: { name: token.name, version: token.version },
  };
}

/** A receiver with a fresh Ed25519 key whose descriptor lists `rails`. */
export async function makeReceiver(rails: readonly Rail[]): Promise<Receiver> {
  const kid = "interop-1";
  const pair = await generateKeyPair("EdDSA");
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid };
  const descriptor = checkDescriptor(
    {
      stipendex: "descriptor/0.1",
      id: RECEIVER_ID,
      name: "Interop weather",
      keys: { keys: [publicJwk] },
      rails: rails.map(({ rail, network, asset, payTo }) => ({ rail, network, asset, payTo })),
      profiles: ["L1", "L2"],
    },
    RECEIVER_ID,
  );
  return { key: { kid, alg: "EdDSA", key: pair.privateKey }, descriptor };
}

export async function makeWallet(): Promise<WalletSigner> {
  return walletSigner(await generateKeyPair("EdDSA"));
}

/** An L2 Quote for GET RESOURCE_URL, issued at `now`, total stated from the rail. */
export function quoteInput(rail: Rail, now: number): QuoteInput {
  return {
    iss: RECEIVER_ID,
    jti: crypto.randomUUID(),
    iat: now,
    exp: now + 120,
    resource: { http: { method: "GET", url: RESOURCE_URL } },
    description: "Weather for one city",
    total: { amount: formatUnits(BigInt(rail.amount), rail.decimals), currency: "USD" },
    rails: [rail],
    profile: "L2",
  };
}

export interface PaidQuote {
  confirmation: string;
  proof: string;
  proofHash: string;
}

/**
 * The wallet side after a human approved `quote` at `now`: Confirmation, EIP-3009 payment for the
 * Quote's first rail, and the Proof carrying both, all with lib.
 */
export async function payQuote(
  quote: VerifiedQuote,
  wallet: WalletSigner,
  account: LocalAccount,
  now: number,
): Promise<PaidQuote> {
  const offer = quoteToOffer(quote, "http");
  const option = offer.options[0];
  const rail = quote.claims.rails.find(isEvmRail);
  if (!option || !rail) throw new Error("the Quote has no rail");
  const confirmation = await signConfirmation(
    {
      aud: quote.claims.iss,
      jti: crypto.randomUUID(),
      iat: now,
      exp: now + 120,
      qh: quote.hash,
      origin: AGENT_ORIGIN,
      decision: "approve",
      mode: "popup",
      humanPresent: true,
      shown: {
        description: quote.claims.description,
        total: quote.claims.total,
        remaining: { day: "9.995 USD" },
      },
    },
    wallet,
  );
  const payment = await signTransferWithAuthorization(account, option, { now });
  const proof = await signProof(
    {
      aud: quote.claims.iss,
      jti: crypto.randomUUID(),
      iat: now,
      exp: Math.min(now + 60, Number(payment.authorization.validBefore)),
      qh: quote.hash,
      ch: await objectHash(confirmation),
      confirmation,
      rail,
      // ProofInput's payment is a zod loose object (index signature); lib's payload is an interface.
      payment: { ...payment, authorization: { ...payment.authorization } },
    },
    wallet,
  );
  return { confirmation, proof, proofHash: await objectHash(proof) };
}

/** The x402 v2 requirement a receiver hands its facilitator for an x402-exact rail. */
export function railRequirement(rail: Rail): PaymentRequirements {
  return {
    scheme: "exact",
    network: rail.network as PaymentRequirements["network"],
    asset: rail.asset,
    amount: rail.amount,
    payTo: rail.payTo,
    maxTimeoutSeconds: rail.maxTimeoutSeconds,
    extra: rail.extra,
  };
}
