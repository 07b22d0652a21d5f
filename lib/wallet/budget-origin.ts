import { isLoopbackHost } from "../protocol/loopback-host";

/**
 * A desktop MCP host paying through `stipendex-proxy` is its own kind of
 * caller, keyed by the upstream server it forwards to: "proxy:https://mcp.example".
 * A web origin as the browser reports it always starts with its scheme, so a
 * proxy key can never be a page's, nor share a page's budget.
 */
const PROXY_PREFIX = "proxy:";

/** The caller key of the proxy forwarding to `upstream`, or undefined when it is no http(s) URL. */
export function proxyCaller(upstream: string): string | undefined {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  return `${PROXY_PREFIX}${url.origin}`;
}

/** The upstream server's origin of a proxy caller key; undefined for a web origin. */
export function proxiedOrigin(caller: string): string | undefined {
  return caller.startsWith(PROXY_PREFIX) ? caller.slice(PROXY_PREFIX.length) : undefined;
}

/**
 * Which callers may hold a budget that pays without asking. An opaque origin
 * ("null": sandboxed frames, data: and file: documents) is nobody in
 * particular, so it can never have one; a plain-http origin can be taken over
 * by anyone on the network path, so only loopback (the person's own machine)
 * may use http. A proxy caller may when its upstream server's origin may.
 */
export function canHoldBudget(origin: string): boolean {
  const upstream = proxiedOrigin(origin);
  if (upstream !== undefined) return isBudgetableWebOrigin(upstream);
  return isBudgetableWebOrigin(origin);
}

function isBudgetableWebOrigin(origin: string): boolean {
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
