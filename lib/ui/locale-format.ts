/** The manifest's default_locale: the language the wallet falls back to. */
const DEFAULT_LOCALE = "en";

/**
 * The browser UI's language as Intl takes it ("de", "ja", "en-US"); the
 * default locale when Intl has no data for the tag or it is not a tag at all.
 */
export function uiLocale(tag: string = browser.i18n.getUILanguage()): string {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf(tag)[0] ?? DEFAULT_LOCALE;
  } catch {
    // RangeError: not a well-formed language tag.
    return DEFAULT_LOCALE;
  }
}

/** A count as the language writes it: "100,000" in English, "100.000" in German. */
export function formatCount(count: number, locale: string = uiLocale()): string {
  return new Intl.NumberFormat(locale).format(count);
}

/** An instant as a short date and a time to the second, in the person's own time zone. */
export function formatDateTime(ms: number, locale: string = uiLocale()): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "short", timeStyle: "medium" }).format(ms);
}

/** An instant in full words, with the name of the person's time zone. */
export function formatDateTimeLong(ms: number, locale: string = uiLocale()): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "long" }).format(ms);
}

/**
 * A UTC day "2025-03-01" (a budget period, see lib/wallet/periods.ts) as the
 * language writes that date. Formatted in UTC, so it is the same calendar day
 * in every time zone.
 */
export function formatUtcDay(day: string, locale: string = uiLocale()): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(
    Date.parse(`${day}T00:00:00Z`),
  );
}

/** A UTC month "2025-03" as the language writes it ("March 2025"). */
export function formatUtcMonth(month: string, locale: string = uiLocale()): string {
  return new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "long",
    timeZone: "UTC",
  }).format(Date.parse(`${month}-01T00:00:00Z`));
}
