/**
 * Characters that show nothing themselves but reorder or hide the text around
 * them: format characters (bidi overrides and isolates, zero-width spaces,
 * word joiners, tags), line and paragraph separators, and the combining
 * grapheme joiner. The two joiners some scripts and emoji need (U+200C, U+200D) aside.
 */
const HIDDEN_FORMATTING = /(?![\u200C\u200D])[\p{Cf}\p{Zl}\p{Zp}]|\u034F/gu;

/**
 * A page's or receiver's words with each character that would act unseen
 * written out as its code point ("⟨U+202E⟩"): a tool named "\u202Ehcraes_bew"
 * reads as what it is, not as "web_search" (red-team review).
 */
export function formattingShown(text: string): string {
  return text.replace(
    HIDDEN_FORMATTING,
    (character) =>
      `⟨U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}⟩`,
  );
}

/**
 * `text` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, with its
 * own formatting characters shown (formattingShown): inside a sentence of the
 * wallet's own, a bidi override in a page's or receiver's words (or in a URL
 * they decode to) cannot reorder what follows them, nor what they say. In
 * markup, <bdi> isolates; formattingShown still applies.
 */
export function isolated(text: string): string {
  return `\u2068${formattingShown(text)}\u2069`;
}
