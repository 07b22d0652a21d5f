import type { JWK } from "jose";
import { ProtocolError } from "../errors";
import { type ConfirmationClaims, confirmationClaimsSchema } from "./claims";
import type { Verified } from "./envelope-jwt";
import { QUOTE_MAX_LIFETIME_SECONDS } from "./quote";
import { signWalletEnvelope, verifyWalletEnvelope, type WalletSigner } from "./wallet-key";

export type ConfirmationInput = Omit<ConfirmationClaims, "stipendex" | "iss">;
export type VerifiedConfirmation = Verified<ConfirmationClaims> & {
  walletId: string;
  publicJwk: JWK;
};

/** Signs what the human (or their policy) decided about a Quote. */
export async function signConfirmation(
  claims: ConfirmationInput,
  wallet: WalletSigner,
): Promise<string> {
  return signWalletEnvelope("confirmation", confirmationClaimsSchema, claims, wallet);
}

export interface VerifyConfirmationOptions {
  /** The receiver id (or, for an x402 payment, the origin that served it): `aud` must be it, or one of them. */
  receiverId: string | string[];
  /** When given, `qh` must be it. */
  quoteHash?: string;
  now?: Date;
  clockToleranceSeconds?: number;
  /** How old `iat` may be; a Confirmation answers a Quote, which lives at most 600 s. */
  maxAgeSeconds?: number;
}

/** Verifies a Confirmation under its own header jwk, for this receiver (and Quote). */
export async function verifyConfirmation(
  jws: unknown,
  options: VerifyConfirmationOptions,
): Promise<VerifiedConfirmation> {
  const verified = await verifyWalletEnvelope(jws, {
    type: "confirmation",
    schema: confirmationClaimsSchema,
    audience: options.receiverId,
    maxTokenAgeSeconds: options.maxAgeSeconds ?? QUOTE_MAX_LIFETIME_SECONDS,
    now: options.now,
    clockToleranceSeconds: options.clockToleranceSeconds,
  });
  if (options.quoteHash !== undefined && verified.claims.qh !== options.quoteHash) {
    throw new ProtocolError(
      "quote-hash-mismatch",
      `Confirmation qh ${verified.claims.qh} is not the Quote hash ${options.quoteHash}`,
    );
  }
  return verified;
}
