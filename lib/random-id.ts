/**
 * A random 128-bit id as hex. Not `crypto.randomUUID`, which exists only in
 * secure contexts, while the page hook also runs on plain-http pages.
 */
export function randomId(): string {
  const words = crypto.getRandomValues(new Uint32Array(4));
  return Array.from(words, (word) => word.toString(16).padStart(8, "0")).join("");
}
