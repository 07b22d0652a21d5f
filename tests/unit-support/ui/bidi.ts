/** Bidi controls: embeddings, overrides, isolates and marks. */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
/** A run a FIRST STRONG ISOLATE opens and its POP DIRECTIONAL ISOLATE closes. */
const ISOLATED_RUN = /\u2068[^\u2068\u2069]*\u2069/g;

/** Text under `root` carrying bidi controls with no <bdi>, [dir] or isolate marks around them. */
export function unisolatedBidi(root: Element): string[] {
  const found: string[] = [];
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? "";
    if (!BIDI.test(text.replace(ISOLATED_RUN, ""))) continue;
    if (node.parentElement?.closest("bdi, [dir]")) continue;
    found.push(text);
  }
  return found;
}
