import { isLoopbackHost } from "../protocol/envelope/descriptor";

/**
 * Which callers may hold a budget that pays without asking. An opaque origin
 * ("null": sandboxed frames, data: and file: documents) is nobody in
 * particular, so it can never have one; a plain-http origin can be taken over
 * by anyone on the network path, so only loopback (the person's own machine)
 * may use http.
 */
export function canHoldBudget(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin) return false;
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && isLoopbackHost(url.hostname);
}
