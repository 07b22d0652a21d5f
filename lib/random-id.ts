/**
 * A random 128-bit id as hex. Not `crypto.randomUUID`, which exists only in
 * secure contexts, while the page hook also runs on plain-http pages.
 */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
