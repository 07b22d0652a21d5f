/** Text as JSON, or undefined when it is not JSON: for what a receiver or page sent, read leniently. */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
