import { StipendexError } from "../errors";
import type { Offer, PaymentOption } from "../protocol/offer";
import type { Registry } from "../protocol/rails/registry";

/** A Quote rail whose decimals differ from the token's real ones (the "10000 meant as 0.01" trap). */
export class DecimalsMismatchError extends StipendexError {
  override name = "DecimalsMismatchError";
  constructor(option: PaymentOption, actual: number) {
    super(
      "decimals-mismatch",
      `Rail says ${option.symbol} at ${option.asset} on ${option.network} has ${option.decimals} decimals; the token has ${actual}`,
    );
  }
}

/**
 * Keeps the options the wallet knows how to value: a known network, a known
 * token at that address, and the token's real decimals (envelope §6). A
 * Stipendex Quote is signed, but its receiver is not the authority on what a
 * token is worth. Throws the first option's error when none is left.
 */
export function knownOptions(offer: Offer, registry: Registry): Offer {
  const kept: PaymentOption[] = [];
  let firstError: unknown;
  for (const option of offer.options) {
    try {
      const token = registry.token(registry.network(option.network), option.asset);
      if (token.decimals !== option.decimals)
        throw new DecimalsMismatchError(option, token.decimals);
      kept.push(option);
    } catch (error) {
      firstError ??= error;
    }
  }
  if (kept.length === 0) throw firstError;
  return { ...offer, options: kept };
}
