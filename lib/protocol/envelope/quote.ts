import { ProtocolError } from "../errors";
import { type QuoteClaims, quoteClaimsSchema } from "./claims";
import { assertRailsListed, type Descriptor } from "./descriptor";
import { signEnvelope, type Verified } from "./envelope-jwt";
import { parseClaims } from "./parse-claims";
import { type ReceiverKey, verifyReceiverEnvelope } from "./receiver-key";
import { assertResourceMatches, type ResourceRequest } from "./resource";
import { assertTotalMatchesRails } from "./total";

export const QUOTE_MIN_LIFETIME_SECONDS = 30;
export const QUOTE_MAX_LIFETIME_SECONDS = 600;

export type QuoteInput = Omit<QuoteClaims, "stipendex">;
export type VerifiedQuote = Verified<QuoteClaims>;

/** §7: a Quote lives 30–600 s; its stablecoin totals match its rails. */
function assertQuoteRules(claims: QuoteClaims): void {
  const lifetime = claims.exp - claims.iat;
  if (lifetime < QUOTE_MIN_LIFETIME_SECONDS || lifetime > QUOTE_MAX_LIFETIME_SECONDS) {
    throw new ProtocolError(
      "lifetime-out-of-range",
      `Quote lives ${lifetime} s (iat ${claims.iat}, exp ${claims.exp}); allowed ${QUOTE_MIN_LIFETIME_SECONDS}–${QUOTE_MAX_LIFETIME_SECONDS} s`,
    );
  }
  assertTotalMatchesRails(claims.total, claims.rails);
}

/** Signs a Quote with a receiver key, refusing claims a wallet would refuse. */
export async function signQuote(claims: QuoteInput, receiverKey: ReceiverKey): Promise<string> {
  const checked = parseClaims(quoteClaimsSchema, { ...claims, stipendex: "quote/0.1" }, "Quote");
  assertQuoteRules(checked);
  return signEnvelope(
    "quote",
    checked,
    { alg: receiverKey.alg, kid: receiverKey.kid },
    receiverKey.key,
  );
}

export interface VerifyQuoteOptions {
  /** The receiver's descriptor, already passed through checkDescriptor. */
  descriptor: Descriptor;
  /** When given, the Quote must be for exactly this call. */
  request?: ResourceRequest;
  now?: Date;
  clockToleranceSeconds?: number;
}

/**
 * Everything §4, §6 and §7 ask of a Quote except replay and user limits:
 * signature under a descriptor key found by kid, typ, iss = descriptor id,
 * not expired nor in the future, lifetime, claims, listed rails, total.
 */
export async function verifyQuote(
  jws: unknown,
  options: VerifyQuoteOptions,
): Promise<VerifiedQuote> {
  const verified = await verifyReceiverEnvelope(jws, options.descriptor, {
    type: "quote",
    schema: quoteClaimsSchema,
    maxTokenAgeSeconds: QUOTE_MAX_LIFETIME_SECONDS,
    now: options.now,
    clockToleranceSeconds: options.clockToleranceSeconds,
  });
  assertQuoteRules(verified.claims);
  assertRailsListed(verified.claims.rails, options.descriptor);
  if (options.request !== undefined) {
    await assertResourceMatches(verified.claims.resource, options.request);
  }
  return verified;
}
