import type { DisplayAmount } from "../messages";
import { parseAmount, parseAtomicAmount } from "../protocol/rails/amount";
import { MICRO_DECIMALS } from "../wallet/policy-settings";
import { UiError } from "./errors";
import { t } from "./i18n";
import { localeAmount, localeInput, parseLocaleAmount } from "./locale-amount";

/** "1.25 USD" ("1,25 USD" in German) from the wire's "1250000" micro units. */
export function showMicro(micro: string, currency: string): string {
  return `${localeAmount(parseAtomicAmount(micro, "micro amount"), MICRO_DECIMALS)} ${currency}`;
}

/** The number a person edits for a micro amount: "1250000" → "1.25" ("1,25" in German). */
export function microToInput(micro: string): string {
  return localeInput(parseAtomicAmount(micro, "micro amount"), MICRO_DECIMALS);
}

/** What the person typed ("1.25", "1,25" in German) as wire micro units ("1250000"); `field` is its label as shown. */
export function inputToMicro(text: string, field: string): string {
  try {
    return parseLocaleAmount(text, MICRO_DECIMALS).toString();
  } catch (cause) {
    const example = localeInput(1_250_000n, MICRO_DECIMALS);
    throw new UiError("invalid-money-input", t("common.amountFormat", [field, text, example]), {
      cause,
    });
  }
}

/**
 * "0.005 USDC": computed from the atomic amount and decimals, not from the
 * background's `formatted`, so what is shown is exactly what is signed.
 */
export function showAmount(amount: DisplayAmount): string {
  const atomic = parseAtomicAmount(amount.atomic, "amount");
  return `${localeAmount(atomic, amount.decimals)} ${amount.symbol}`;
}

/**
 * A decimal the receiver wrote (a Stipendex `total`), in the person's number
 * style like every amount beside it; anything else is shown as written.
 */
export function showStatedDecimal(text: string): string {
  if (!/^[0-9]{1,40}(\.[0-9]{1,40})?$/.test(text)) return text;
  const decimals = text.split(".")[1]?.length ?? 0;
  return localeAmount(parseAmount(text, decimals), decimals);
}
