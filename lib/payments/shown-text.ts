import type { ShownText } from "../messages";

/**
 * The first `max` characters of a page's text (code points, so no surrogate
 * pair is split) and how many were left out: what the confirmation window
 * (and storage.session, which keeps its requests) gets of text of any length.
 */
export function shownText(text: string, max: number): ShownText {
  // Code units bound code points from above: most texts need no split.
  if (text.length <= max) return { text, omitted: 0 };
  let count = 0;
  /** Code units of the first `max` code points. */
  let end = 0;
  for (const character of text) {
    if (count < max) end += character.length;
    count++;
  }
  return count <= max ? { text, omitted: 0 } : { text: text.slice(0, end), omitted: count - max };
}
