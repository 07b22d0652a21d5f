import type { ShownArguments } from "../messages";
import { shownText } from "./shown-text";

/*
 * An MCP tool call's arguments as the confirmation window lists them. They are
 * the page's data and may be a megabyte (PAGE_LIMITS.mcpArguments): the window
 * (and storage.session, which keeps pending approvals) gets a bounded part.
 */

/** Arguments listed by name; the count of the others is shown. */
export const LISTED_ARGUMENTS = 12;
/** Characters kept of an argument's value (as JSON) and of its name. */
export const KEPT_VALUE_CHARS = 1000;
export const KEPT_NAME_CHARS = 120;

/** `args` as sent (undefined: the client sent none), each value as JSON, every part bounded. */
export function shownArguments(args: unknown): ShownArguments {
  if (args === undefined) return { listed: [], unlisted: 0 };
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    // Not the object MCP specifies: shown whole, as one value without a name.
    return { listed: [{ value: shownText(asJson(args), KEPT_VALUE_CHARS) }], unlisted: 0 };
  }
  const entries = Object.entries(args);
  return {
    listed: entries.slice(0, LISTED_ARGUMENTS).map(([name, value]) => ({
      name: shownText(name, KEPT_NAME_CHARS),
      value: shownText(asJson(value), KEPT_VALUE_CHARS),
    })),
    unlisted: Math.max(0, entries.length - LISTED_ARGUMENTS),
  };
}

/**
 * Strings quoted, so "7" and 7 (or an empty string) read apart; JSON escapes
 * control characters. Indented only when short: indenting a deep value of the
 * page's megabyte would make it tens of megabytes, to keep a thousand characters.
 */
function asJson(value: unknown): string {
  // JSON has no text for undefined (a caller that did not check its JSON): say so rather than fail.
  const compact = JSON.stringify(value) ?? String(value);
  return compact.length <= KEPT_VALUE_CHARS ? JSON.stringify(value, null, 2) : compact;
}
