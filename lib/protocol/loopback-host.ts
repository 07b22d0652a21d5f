const LOOPBACK_HOSTS = new Set(["localhost", "[::1]"]);

/** Hosts that may be reached over plain http (envelope §7): loopback, as `URL.hostname` gives them. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
