import { getAddress, isAddress } from "viem";
import { ProtocolError, quote } from "../errors";
import { isRecord } from "./is-record";
import { type Network, resolveNetwork } from "./networks";
import { KNOWN_TOKENS, type Token } from "./tokens";

export interface Registry {
  /** A network by CAIP-2 id or x402 v1 name; throws "unknown-network". */
  network(id: unknown): Network;
  /**
   * A token on a network by contract address (any letter case) or, when exactly one token
   * there has that symbol, by symbol (seed 004 servers send `asset: "USDT0"`).
   * Throws "unknown-asset".
   */
  token(network: Network, asset: unknown): Token;
  tokens(): readonly Token[];
}

const MAX_DECIMALS = 36;

function invalidToken(field: string, value: unknown): ProtocolError {
  return new ProtocolError("invalid-token", `token entry has an invalid ${field}: ${quote(value)}`);
}

function nonEmpty(entry: Record<string, unknown>, field: string, value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 64) {
    throw invalidToken(field, entry[field] ?? value);
  }
  return value;
}

/** Check a token that came from storage or a test at runtime (local chains, user-added tokens). */
export function readToken(entry: unknown): Token {
  if (!isRecord(entry)) throw invalidToken("entry", entry);
  const network = resolveNetwork(entry.network);
  const address = entry.address;
  if (typeof address !== "string" || !isAddress(address)) {
    throw invalidToken("address", address);
  }
  const decimals = entry.decimals;
  if (
    typeof decimals !== "number" ||
    !Number.isInteger(decimals) ||
    decimals < 0 ||
    decimals > MAX_DECIMALS
  ) {
    throw new ProtocolError(
      "missing-decimals",
      `token ${quote(address)} on ${network.caip2} has no usable decimals (got ${quote(decimals)}); amounts cannot be read`,
    );
  }
  const eip712 = isRecord(entry.eip712) ? entry.eip712 : {};
  const token: Token = {
    network: network.caip2,
    address: getAddress(address),
    symbol: nonEmpty(entry, "symbol", entry.symbol),
    decimals,
    eip712: {
      name: nonEmpty(entry, "eip712.name", eip712.name),
      version: nonEmpty(entry, "eip712.version", eip712.version),
    },
  };
  if (entry.currency !== undefined) token.currency = nonEmpty(entry, "currency", entry.currency);
  return token;
}

/**
 * Refuses a price that names, for a known token, another EIP-712 domain than the token's
 * own (or one it is also known by): the contract checks its own domain, so such a signature
 * would be refused on chain, after the wallet had counted it as spent. `where` says who
 * named it ("accepts[0].extra").
 */
export function assertTokenDomain(token: Token, named: Token["eip712"], where: string): void {
  const own = token.eip712;
  const known = [own, ...(token.alsoNamed ?? [])];
  if (known.some(({ name, version }) => named.name === name && named.version === version)) return;
  throw new ProtocolError(
    "domain-mismatch",
    `${where} names the EIP-712 domain ${quote(named.name)} version ${quote(named.version)} for ${token.symbol} (${token.address} on ${token.network}), whose contract signs as ${quote(own.name)} version ${quote(own.version)}`,
  );
}

/**
 * A registry of the known networks and tokens plus `extraTokens` (checked with readToken).
 * An extra token with the address of a known one replaces it. No global state: each caller
 * builds the registry it needs.
 */
export function createRegistry(extraTokens: readonly unknown[] = []): Registry {
  const byKey = new Map<string, Token>();
  const key = (network: string, address: string) => `${network}/${address.toLowerCase()}`;
  for (const token of [...KNOWN_TOKENS, ...extraTokens.map(readToken)]) {
    byKey.set(key(token.network, token.address), token);
  }
  const all = [...byKey.values()];
  return {
    network: resolveNetwork,
    token(network, asset) {
      if (typeof asset === "string") {
        const exact = byKey.get(key(network.caip2, asset));
        if (exact) return exact;
        const bySymbol = all.filter((t) => t.network === network.caip2 && t.symbol === asset);
        const only = bySymbol.length === 1 ? bySymbol[0] : undefined;
        if (only) return only;
      }
      throw new ProtocolError(
        "unknown-asset",
        `unknown asset ${quote(asset)} on ${network.caip2}: no token with that address`,
      );
    },
    tokens: () => all,
  };
}
