/**
 * `text` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: inside a
 * sentence of the wallet's own, a bidi override in a page's or receiver's
 * words (or in a URL they decode to) cannot reorder what follows them. In
 * markup, <bdi> does the same.
 */
export function isolated(text: string): string {
  return `\u2068${text}\u2069`;
}
