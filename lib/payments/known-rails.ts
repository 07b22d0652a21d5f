import { formatUnits } from "viem";
import { totalMatchesAmount } from "../protocol/envelope/total";
import type { Offer, PaymentOption } from "../protocol/offer";
import { assertTokenDomain, type Registry } from "../protocol/rails/registry";
import { PaymentError } from "./errors";

/**
 * Keeps the options the wallet knows how to value: a known network, a known
 * token at that address, the token's real decimals (envelope §6) and the
 * EIP-712 domain its contract signs with. A Stipendex Quote is signed, but its
 * receiver is not the authority on what a token is: the symbol shown is the
 * registry's, never the receiver's, and a display total must state exactly
 * what each rail of a token with a known currency pays (whatever symbol the
 * receiver gave it). Throws the first option's error when none is left.
 */
export function knownOptions(offer: Offer, registry: Registry): Offer {
  const kept: PaymentOption[] = [];
  let firstError: unknown;
  for (const option of offer.options) {
    try {
      const token = registry.token(registry.network(option.network), option.asset);
      if (token.decimals !== option.decimals) {
        throw new PaymentError(
          "decimals-mismatch",
          `Rail says ${option.symbol} at ${option.asset} on ${option.network} has ${option.decimals} decimals; the token has ${token.decimals}`,
        );
      }
      assertTokenDomain(token, option.eip712, "Rail");
      const known = { ...option, symbol: token.symbol };
      const total = offer.displayTotal;
      if (
        total !== undefined &&
        token.currency !== undefined &&
        !totalMatchesAmount(total, known.amount, known.decimals, token.currency)
      ) {
        throw new PaymentError(
          "total-disagrees-with-rail",
          `The price says ${total.amount} ${total.currency}, but its ${known.symbol} rail on ${known.network} pays ${formatUnits(known.amount, known.decimals)} ${token.currency}`,
        );
      }
      kept.push(known);
    } catch (error) {
      firstError ??= error;
    }
  }
  if (kept.length === 0) throw firstError;
  return { ...offer, options: kept };
}
