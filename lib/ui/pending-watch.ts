/** The storage.session key the background updates whenever the approval queue changes. */
export const PENDING_KEY = "stipendex.pending";

/**
 * Calls `onChange` when the approval queue may have changed: at once on a
 * storage.session change of PENDING_KEY, and every `intervalMs` as a fallback
 * (a change event can be missed while the window is being created).
 * Returns the function that stops watching.
 */
export function watchPending(onChange: () => void, intervalMs = 500): () => void {
  const listener = (changes: Record<string, unknown>) => {
    if (PENDING_KEY in changes) onChange();
  };
  browser.storage.session.onChanged.addListener(listener);
  const timer = setInterval(onChange, intervalMs);
  return () => {
    clearInterval(timer);
    browser.storage.session.onChanged.removeListener(listener);
  };
}
