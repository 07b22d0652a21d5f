/** Where a key is input the person gave this window on purpose: a field, or a control they moved to. */
const DELIBERATE = "input, textarea, select, button, a, summary, [contenteditable]";

/**
 * A key that types or deletes text, pressed outside any field or control:
 * typing meant for another window (the chat box of the page the confirmation
 * window just covered), so an Enter after it is that text's end, not a decision.
 */
export function isStrayTyping(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  const target = event.target;
  if (target instanceof Element && target.closest(DELIBERATE)) return false;
  // One character (an emoji is two UTF-16 units), a deletion, or an input method composing.
  return (
    Array.from(event.key).length === 1 ||
    event.key === "Backspace" ||
    event.key === "Delete" ||
    event.isComposing ||
    event.key === "Process"
  );
}
