import type { JWK } from "jose";
import { canonicalize } from "../canonical-json";
import { ProtocolError } from "../errors";
import { type ProofClaims, proofClaimsSchema } from "./claims";
import { type VerifiedConfirmation, verifyConfirmation } from "./confirmation";
import { DEFAULT_CLOCK_TOLERANCE_SECONDS, type Verified } from "./envelope-jwt";
import type { VerifiedQuote } from "./quote";
import { claimQuoteOnce, type QuoteReplayGuard } from "./replay-guard";
import { signWalletEnvelope, verifyWalletEnvelope, type WalletSigner } from "./wallet-key";

/** Receivers refuse an authorization with less than this left (§7, as x402 facilitators do). */
export const MIN_AUTHORIZATION_SECONDS_LEFT = 6;
/** Bounds a Proof's age: validBefore is at most signing time + maxTimeoutSeconds (≤ 1 day). */
const PROOF_MAX_AGE_SECONDS = 86_400;

export type ProofInput = Omit<ProofClaims, "stipendex" | "iss">;
export type VerifiedProof = Verified<ProofClaims> & {
  walletId: string;
  publicJwk: JWK;
  /** The embedded Confirmation, verified, when the Proof carries one. */
  confirmation?: VerifiedConfirmation;
};

/** The x402 payload pays exactly the rail: `to` = payTo, `value` = amount, `exp` ≤ validBefore. */
export function assertPaymentMatchesRail(claims: ProofClaims): void {
  const { rail } = claims;
  const { to, value, validBefore } = claims.payment.authorization;
  if (to.toLowerCase() !== rail.payTo.toLowerCase()) {
    throw new ProtocolError(
      "payment-rail-mismatch",
      `Authorization pays ${to}, the rail's payTo is ${rail.payTo}`,
    );
  }
  if (value !== rail.amount) {
    throw new ProtocolError(
      "payment-rail-mismatch",
      `Authorization value ${value} is not the rail amount ${rail.amount}`,
    );
  }
  if (BigInt(claims.exp) > BigInt(validBefore)) {
    throw new ProtocolError(
      "authorization-window",
      `Proof exp ${claims.exp} is after the authorization's validBefore ${validBefore}`,
    );
  }
}

/** Signs a Proof: the chosen rail copied from the Quote and its signed x402 payload. */
export async function signProof(claims: ProofInput, wallet: WalletSigner): Promise<string> {
  return signWalletEnvelope("proof", proofClaimsSchema, claims, wallet, assertPaymentMatchesRail);
}

export interface VerifyProofOptions {
  /** The Quote this Proof pays, verified by the receiver itself. */
  quote: VerifiedQuote;
  /** The receiver's descriptor id: the Proof's `aud`, and the Quote's `iss`. */
  receiverId: string;
  now?: Date;
  clockToleranceSeconds?: number;
  /** When given, the Quote is claimed once after every other check passed. */
  replayGuard?: QuoteReplayGuard;
}

function assertRailCopied(claims: ProofClaims, quote: VerifiedQuote): void {
  const chosen = canonicalize(claims.rail);
  if (!quote.claims.rails.some((rail) => canonicalize(rail) === chosen)) {
    throw new ProtocolError(
      "proof-rail-mismatch",
      `Proof rail ${chosen} is not a verbatim copy of a Quote rail`,
    );
  }
}

function assertAuthorizationWindow(claims: ProofClaims, now: number, tolerance: number): void {
  const { validAfter, validBefore } = claims.payment.authorization;
  if (BigInt(validBefore) < BigInt(now + MIN_AUTHORIZATION_SECONDS_LEFT)) {
    throw new ProtocolError(
      "authorization-window",
      `Authorization validBefore ${validBefore} leaves less than ${MIN_AUTHORIZATION_SECONDS_LEFT} s at ${now}`,
    );
  }
  if (BigInt(validAfter) > BigInt(now + tolerance)) {
    throw new ProtocolError(
      "authorization-window",
      `Authorization validAfter ${validAfter} is after now (${now})`,
    );
  }
}

async function verifyEmbeddedConfirmation(
  proof: Verified<ProofClaims> & { walletId: string },
  options: VerifyProofOptions,
): Promise<VerifiedConfirmation | undefined> {
  const { confirmation: embedded, ch } = proof.claims;
  if (embedded === undefined) {
    if (options.quote.claims.profile === "L2") {
      throw new ProtocolError(
        "confirmation-required",
        "The Quote asks for profile L2: the Proof must embed its Confirmation",
      );
    }
    return undefined;
  }
  const confirmation = await verifyConfirmation(embedded, {
    receiverId: options.receiverId,
    quoteHash: options.quote.hash,
    now: options.now,
    clockToleranceSeconds: options.clockToleranceSeconds,
  });
  if (confirmation.hash !== ch) {
    throw new ProtocolError(
      "confirmation-hash-mismatch",
      `Proof ch ${ch} is not the embedded Confirmation's hash ${confirmation.hash}`,
    );
  }
  if (confirmation.walletId !== proof.walletId) {
    throw new ProtocolError(
      "wallet-mismatch",
      `Confirmation was signed by ${confirmation.walletId}, the Proof by ${proof.walletId}`,
    );
  }
  if (confirmation.claims.decision !== "approve") {
    throw new ProtocolError(
      "confirmation-declined",
      `The embedded Confirmation says ${confirmation.claims.decision}`,
    );
  }
  return confirmation;
}

/**
 * The receiver's check of a Proof: wallet signature and ids, aud, qh, the rail
 * copied verbatim, the payload paying exactly that rail in time, the Quote
 * still valid, L2 Confirmation, then (optionally) once-only use of the Quote.
 * The EIP-712 signature itself is left to the facilitator that settles it.
 */
export async function verifyProof(
  jws: unknown,
  options: VerifyProofOptions,
): Promise<VerifiedProof> {
  const { quote, receiverId } = options;
  const tolerance = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (quote.claims.iss !== receiverId) {
    throw new ProtocolError(
      "audience-mismatch",
      `The Quote was issued by ${quote.claims.iss}, not by receiver ${receiverId}`,
    );
  }
  const proof = await verifyWalletEnvelope(jws, {
    type: "proof",
    schema: proofClaimsSchema,
    audience: receiverId,
    maxTokenAgeSeconds: PROOF_MAX_AGE_SECONDS,
    now: options.now,
    clockToleranceSeconds: tolerance,
  });
  if (proof.claims.qh !== quote.hash) {
    throw new ProtocolError(
      "quote-hash-mismatch",
      `Proof qh ${proof.claims.qh} is not the Quote hash ${quote.hash}`,
    );
  }
  if (quote.claims.exp <= now - tolerance) {
    throw new ProtocolError(
      "expired",
      `Quote ${quote.claims.jti} expired at ${quote.claims.exp} (now ${now})`,
    );
  }
  assertRailCopied(proof.claims, quote);
  assertPaymentMatchesRail(proof.claims);
  assertAuthorizationWindow(proof.claims, now, tolerance);
  const confirmation = await verifyEmbeddedConfirmation(proof, options);
  if (options.replayGuard !== undefined) await claimQuoteOnce(options.replayGuard, quote);
  return confirmation === undefined ? proof : { ...proof, confirmation };
}
