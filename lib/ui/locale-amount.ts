import { ProtocolError, quote } from "../protocol/errors";
import { formatAmount, parseAmount } from "../protocol/rails/amount";
import { uiLocale } from "./locale-format";

/** How a language writes a number: its decimal mark, grouping separator and digits 0–9. */
interface NumberSymbols {
  decimal: string;
  group: string;
  digits: string[];
}

function numberSymbols(format: Intl.NumberFormat): NumberSymbols {
  // Big enough that every language groups it (Spanish leaves 4-digit numbers ungrouped).
  const parts = format.formatToParts(12_345_678.5);
  return {
    decimal: parts.find((part) => part.type === "decimal")?.value ?? ".",
    group: parts.find((part) => part.type === "group")?.value ?? "",
    digits: Array.from({ length: 10 }, (_, digit) => format.format(digit)),
  };
}

/**
 * Exact atomic units in the language's digits, decimal mark, minus sign and
 * (when `useGrouping`) grouping. Every digit formatAmount writes is kept:
 * nothing rounds, so a price is never shown below what is charged. The whole
 * part goes to Intl as a bigint (exact at any size); the fraction digits are
 * spelled one by one, because Intl's fraction digits stop at 20 in Node 20
 * (100 in browsers) and an asset may have up to 77 decimals.
 */
function spell(atomic: bigint, decimals: number, locale: string, useGrouping: boolean): string {
  // Left unset, grouping is the language's own: `true` means "always" to Intl, grouping "1.234" where Spanish writes "1234".
  const format = new Intl.NumberFormat(locale, useGrouping ? {} : { useGrouping: false });
  const [whole = "0", fraction] = formatAmount(atomic < 0n ? -atomic : atomic, decimals).split(".");
  const wholeText = format.format(BigInt(whole));
  const { decimal, digits } = numberSymbols(format);
  const text =
    fraction === undefined
      ? wholeText
      : `${wholeText}${decimal}${[...fraction].map((digit) => digits[Number(digit)]).join("")}`;
  if (atomic >= 0n) return text;
  // A balance after a payment it cannot cover: the language's minus sign, where it puts it.
  return format
    .formatToParts(-1n)
    .map((part) => (part.type === "integer" ? text : part.value))
    .join("");
}

/** An amount as the language writes it: 123450000n with 5 decimals is "1,234.5" in English, "1.234,5" in German. */
export function localeAmount(atomic: bigint, decimals: number, locale = uiLocale()): string {
  return spell(atomic, decimals, locale, true);
}

/**
 * An amount as a person edits it: the language's decimal mark, no grouping
 * ("1234,5" in German), which parseLocaleAmount reads back exactly.
 */
export function localeInput(atomic: bigint, decimals: number, locale = uiLocale()): string {
  return spell(atomic, decimals, locale, false);
}

/**
 * What the person typed, in atomic units: the language's digits and decimal
 * mark, or a "." unless the language groups with it (a pasted "0.01" works in
 * English, French, Japanese). Grouping is refused, never dropped: "1.500" in
 * German or "1,5" in English would be a thousandfold guess, so it throws.
 * Throws the ProtocolError of parseAmount for anything not an exact amount.
 */
export function parseLocaleAmount(text: string, decimals: number, locale = uiLocale()): bigint {
  const { decimal, group, digits } = numberSymbols(new Intl.NumberFormat(locale));
  const marks = group === "." ? [decimal] : [decimal, "."];
  const plain = [...text.trim()].map((char) => {
    if (marks.includes(char)) return ".";
    if (char === group) {
      throw new ProtocolError("amount-syntax", `${quote(text)} has a grouping separator`);
    }
    const digit = digits.indexOf(char);
    return digit < 0 ? char : String(digit);
  });
  return parseAmount(plain.join(""), decimals);
}
