import type { PaymentRecord } from "../db/schema";
import type { Offer, OfferResource } from "../protocol/offer";

/**
 * What the history keeps of a request that ended with nothing paid (refused
 * or declined). Such a request costs a page nothing, and its price may be as
 * large as the wallet reads (64 KiB, stored again in each option's raw rail
 * and the x402 body): kept whole, a page could fill the person's history.
 * A price up to KEPT_OFFER_CHARS is kept as it came; a larger one keeps what
 * the history shows (who, what, how much, why), marked `offerTrimmed`.
 */

/** Past this many characters (as JSON) an unpaid request's price keeps only its summary. */
export const KEPT_OFFER_CHARS = 8 * 1024;
/** How much of a description or URL a trimmed price keeps. */
export const KEPT_TEXT_CHARS = 1000;

/** States a request can end in without a payment. */
const ENDED_UNPAID: ReadonlySet<PaymentRecord["state"]> = new Set([
  "refused",
  "declined",
  "expired",
]);

/** `record` as the history keeps it: trimmed when it ended unpaid with a large price. */
export function unpaidRecord(record: PaymentRecord): PaymentRecord {
  const unpaid =
    ENDED_UNPAID.has(record.state) && record.proof === undefined && record.charge === undefined;
  if (!unpaid || jsonLength(record.offer) <= KEPT_OFFER_CHARS) return record;
  const offer = trimmedOffer(record);
  return {
    ...record,
    receiver: clipped(record.receiver),
    symbol: clipped(record.symbol),
    resource: offer.resource,
    offer,
    ...(record.reason === undefined ? {} : { reason: clipped(record.reason) }),
    offerTrimmed: true,
  };
}

function trimmedOffer(record: PaymentRecord): Offer {
  const { offer } = record;
  const chosen =
    offer.options.find(
      (option) =>
        option.network === record.network &&
        option.asset === record.asset &&
        option.payTo === record.payTo &&
        option.amount.toString() === record.amount,
    ) ?? offer.options[0];
  return {
    protocol: offer.protocol,
    transport: offer.transport,
    receiver: clipped(offer.receiver),
    ...(offer.claimedBy === undefined ? {} : { claimedBy: clipped(offer.claimedBy) }),
    ...(offer.receiverName === undefined ? {} : { receiverName: clipped(offer.receiverName) }),
    resource: trimmedResource(offer.resource),
    description: clipped(offer.description),
    ...(offer.displayTotal === undefined
      ? {}
      : {
          displayTotal: {
            amount: clipped(offer.displayTotal.amount),
            currency: clipped(offer.displayTotal.currency),
          },
        }),
    // The rail as received (raw), the Quote and the x402 body are what made it large.
    options: chosen === undefined ? [] : [{ ...chosen, symbol: clipped(chosen.symbol), raw: {} }],
    ...(offer.defaults === undefined ? {} : { defaults: offer.defaults }),
  };
}

function trimmedResource(resource: OfferResource): OfferResource {
  return resource.kind === "http"
    ? { ...resource, method: clipped(resource.method), url: clipped(resource.url) }
    : {
        ...resource,
        server: clipped(resource.server),
        tool: clipped(resource.tool),
        argsHash: clipped(resource.argsHash),
      };
}

function clipped(text: string): string {
  return text.length <= KEPT_TEXT_CHARS ? text : `${text.slice(0, KEPT_TEXT_CHARS)}…`;
}

/** The length of `value` as JSON, amounts (bigint) as their digits. */
function jsonLength(value: unknown): number {
  return JSON.stringify(value, (_key, member: unknown) =>
    typeof member === "bigint" ? member.toString() : member,
  ).length;
}
