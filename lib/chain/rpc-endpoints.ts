import type { Caip2 } from "../protocol/offer";

/**
 * Public JSON-RPC endpoints the wallet reads balances and settlements from,
 * one per network it pays on. The person can replace any of them in settings
 * (their own node, a provider with a key); the local chain has none: `npm
 * start` builds the wallet with the demo chain's endpoint (WXT_DEMO_RPC).
 */
export const DEFAULT_RPC_ENDPOINTS: Readonly<Partial<Record<Caip2, string>>> = {
  "eip155:8453": "https://mainnet.base.org",
  "eip155:84532": "https://sepolia.base.org",
  "eip155:1": "https://ethereum-rpc.publicnode.com",
  "eip155:137": "https://polygon-rpc.com",
  "eip155:42161": "https://arb1.arbitrum.io/rpc",
  "eip155:43114": "https://api.avax.network/ext/bc/C/rpc",
  "eip155:43113": "https://api.avax-test.network/ext/bc/C/rpc",
  "eip155:196": "https://rpc.xlayer.tech",
};

/**
 * `network=url` pairs, comma separated (how a build names its own endpoints,
 * e.g. the demo chain's), into a map; a pair that is not one is left out.
 */
export function parseRpcEndpoints(text: string | undefined): Partial<Record<Caip2, string>> {
  const endpoints: Partial<Record<Caip2, string>> = {};
  for (const pair of (text ?? "").split(",")) {
    const match = /^\s*(eip155:[1-9][0-9]*)\s*=\s*(https?:\/\/\S+)\s*$/.exec(pair);
    if (match?.[1] && match[2]) endpoints[match[1] as Caip2] = match[2];
  }
  return endpoints;
}

/** The endpoint for `network`: the person's choice, else the build's, else the public default. */
export function rpcEndpointFor(
  network: Caip2,
  chosen: Partial<Record<Caip2, string>>,
  built: Partial<Record<Caip2, string>> = {},
): string | undefined {
  return chosen[network] ?? built[network] ?? DEFAULT_RPC_ENDPOINTS[network];
}

/** The networks whose chosen endpoint differs between `before` and `after`: set, changed or taken out. */
export function networksWithChangedEndpoint(
  before: Partial<Record<string, string>>,
  after: Partial<Record<string, string>>,
): Set<string> {
  const networks = new Set([...Object.keys(before), ...Object.keys(after)]);
  return new Set([...networks].filter((network) => before[network] !== after[network]));
}
