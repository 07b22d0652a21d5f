import type { DisplayAmount } from "../messages";
import { formatAmount, parseAmount, parseAtomicAmount } from "../protocol/rails/amount";
import { formatMicro } from "../wallet/micro";
import { MICRO_DECIMALS } from "../wallet/policy-settings";
import { UiError } from "./errors";
import { t } from "./i18n";

/** "1.25 USD" from the wire's "1250000" micro units. */
export function showMicro(micro: string, currency: string): string {
  return formatMicro(parseAtomicAmount(micro, "micro amount"), currency);
}

/** The number a person edits for a micro amount: "1250000" → "1.25". */
export function microToInput(micro: string): string {
  return formatAmount(parseAtomicAmount(micro, "micro amount"), MICRO_DECIMALS);
}

/** What the person typed ("1.25") as wire micro units ("1250000"); `field` is its label as shown. */
export function inputToMicro(text: string, field: string): string {
  try {
    return parseAmount(text.trim(), MICRO_DECIMALS).toString();
  } catch (cause) {
    throw new UiError("invalid-money-input", t("common.amountFormat", [field, text]), { cause });
  }
}

/**
 * "0.005 USDC": computed from the atomic amount and decimals, not from the
 * background's `formatted`, so what is shown is exactly what is signed.
 */
export function showAmount(amount: DisplayAmount): string {
  const atomic = parseAtomicAmount(amount.atomic, "amount");
  return `${formatAmount(atomic, amount.decimals)} ${amount.symbol}`;
}
