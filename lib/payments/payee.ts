import type { Offer, PaymentOption } from "../protocol/offer";
import { describedBy } from "../protocol/x402/payment-required";

/** CAIP-10 account id of an option's payee, e.g. "eip155:8453:0xabc…" (address in lower case). */
export function payeeAccount(option: Pick<PaymentOption, "network" | "payTo">): string {
  return `${option.network}:${option.payTo.toLowerCase()}`;
}

/**
 * Who an offer pays, as the wallet can know it. A Stipendex Quote is signed:
 * its receiver is the verified `iss`. An x402 price is unsigned, so the URL it
 * came with is only the page's claim: its receiver is the account paid
 * (network + pay-to), and the claimed origin is kept as `claimedBy` to show.
 * Allow and deny lists and "first payment to" then key on what is paid, never
 * on a URL a page supplied. An x402 v1 price describes each option apart:
 * the description shown is then the chosen option's.
 */
export function bindPayee(offer: Offer, option: PaymentOption): Offer {
  if (offer.quote) return offer;
  return {
    ...offer,
    receiver: payeeAccount(option),
    claimedBy: offer.claimedBy ?? offer.receiver,
    ...(offer.protocol === "x402-v1" ? { description: describedBy(option.raw) } : {}),
  };
}
