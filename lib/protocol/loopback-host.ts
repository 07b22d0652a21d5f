/** `localhost` and its subdomains (RFC 6761): both browsers resolve them to the machine itself. */
export function isLocalhostName(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost");
}

/**
 * Hosts that may be reached over plain http (envelope §7): loopback, as `URL.hostname` gives
 * them; the localhost names are resolved without DNS and are secure contexts in both browsers.
 */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === "[::1]" ||
    isLocalhostName(hostname) ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}
