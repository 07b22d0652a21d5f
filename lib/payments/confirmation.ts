import { canonicalize, sha256Base64url } from "../protocol/canonical-json";
import { signConfirmation } from "../protocol/envelope/confirmation";
import type { WalletSigner } from "../protocol/envelope/wallet-key";
import type { Offer, PaymentOption } from "../protocol/offer";
import { formatAmount } from "../protocol/rails/amount";
import { randomId } from "../random-id";

/** How long a Confirmation stands: as long as a Quote may live. */
const CONFIRMATION_LIFETIME_SECONDS = 600;

export interface Decision {
  decision: "approve" | "decline";
  mode: "popup" | "elicitation" | "policy";
  /** The policy rule, when mode is "policy". */
  rule?: string;
  humanPresent: boolean;
  /** Each limit after this payment, as shown. */
  remaining: Record<string, string>;
}

/**
 * `qh` of what is confirmed: the Quote's hash, or for x402 (unsigned) the
 * hash of the RFC 8785 JSON of the chosen requirement (envelope §8).
 */
export function offerHash(offer: Offer, option: PaymentOption): Promise<string> {
  return offer.quote
    ? Promise.resolve(offer.quote.hash)
    : sha256Base64url(canonicalize(option.raw));
}

/** What the person is shown as the total: the receiver's, or the amount itself for x402. */
export function shownTotal(
  offer: Offer,
  option: PaymentOption,
): { amount: string; currency: string } {
  return (
    offer.displayTotal ?? {
      amount: formatAmount(option.amount, option.decimals),
      currency: option.symbol,
    }
  );
}

/**
 * Whom a Confirmation is addressed to (`aud`): a Quote's receiver; for an x402
 * price (unsigned, bound to its payee), the origin that served the 402 (envelope §8).
 */
export function confirmationAudience(offer: Offer): string {
  return offer.quote ? offer.receiver : (offer.claimedBy ?? offer.receiver);
}

/** Signs the wallet's Confirmation of an offer, for the page's origin as the browser reported it. */
export async function confirmOffer(
  offer: Offer,
  option: PaymentOption,
  origin: string,
  decision: Decision,
  signer: WalletSigner,
  nowSeconds: number,
): Promise<string> {
  return signConfirmation(
    {
      aud: confirmationAudience(offer),
      jti: randomId(),
      iat: nowSeconds,
      exp: nowSeconds + CONFIRMATION_LIFETIME_SECONDS,
      qh: await offerHash(offer, option),
      origin,
      decision: decision.decision,
      mode: decision.mode,
      ...(decision.rule === undefined ? {} : { rule: decision.rule }),
      humanPresent: decision.humanPresent,
      shown: {
        description: offer.description,
        total: shownTotal(offer, option),
        remaining: decision.remaining,
      },
    },
    signer,
  );
}
