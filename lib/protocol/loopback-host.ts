const LOOPBACK_HOSTS = new Set(["localhost", "[::1]"]);

/**
 * Hosts that may be reached over plain http (envelope §7): loopback, as `URL.hostname` gives
 * them. `*.localhost` is loopback too (RFC 6761): both browsers resolve it to the machine itself,
 * never through DNS, and treat it as a secure context.
 */
export function isLoopbackHost(hostname: string): boolean {
  return (
    LOOPBACK_HOSTS.has(hostname) ||
    hostname.endsWith(".localhost") ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}
