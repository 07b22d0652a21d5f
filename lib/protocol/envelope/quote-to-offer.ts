import { ProtocolError } from "../errors";
import type { Address, Caip2, Offer, OfferResource, OfferTransport, PaymentOption } from "../offer";
import { isEvmRail, type Rail, type Resource } from "./claims";
import type { VerifiedQuote } from "./quote";

function toResource(resource: Resource): OfferResource {
  if (resource.http) return { kind: "http", method: resource.http.method, url: resource.http.url };
  const { server, tool, argsHash } = resource.mcp;
  return { kind: "mcp", server, tool, argsHash };
}

function toOption(rail: Rail): PaymentOption {
  return {
    scheme: "exact",
    network: rail.network as Caip2,
    chainId: Number(rail.network.slice("eip155:".length)),
    asset: rail.asset as Address,
    amount: BigInt(rail.amount),
    decimals: rail.decimals,
    symbol: rail.symbol,
    payTo: rail.payTo as Address,
    maxTimeoutSeconds: rail.maxTimeoutSeconds,
    eip712: { name: rail.extra.name, version: rail.extra.version },
    raw: rail,
  };
}

/**
 * The normalized Offer of a verified Quote; decimals and symbol come from the rail itself.
 * Rails on chains other than EVM ones are left out: the wallet cannot pay them (§6), and the
 * rails beside them stay payable. With none left, it says so as an unknown EVM chain would.
 */
export function quoteToOffer(quote: VerifiedQuote, transport: OfferTransport): Offer {
  const { claims } = quote;
  const resource = toResource(claims.resource);
  if (resource.kind !== transport) {
    throw new ProtocolError(
      "transport-mismatch",
      `Quote ${claims.jti} is for an ${resource.kind} resource but came over ${transport}`,
    );
  }
  const options = claims.rails.filter(isEvmRail).map(toOption);
  if (options.length === 0) {
    const networks = claims.rails.map((rail) => rail.network).join(", ");
    throw new ProtocolError(
      "unknown-network",
      `Quote ${claims.jti} offers no rail on an EVM chain this wallet pays on, only ${networks}`,
    );
  }
  return {
    protocol: "stipendex",
    transport,
    receiver: claims.iss,
    resource,
    description: claims.description,
    displayTotal: { amount: claims.total.amount, currency: claims.total.currency },
    options,
    quote: {
      jws: quote.jws,
      id: claims.jti,
      hash: quote.hash,
      issuedAt: claims.iat,
      expiresAt: claims.exp,
      ...(claims.profile === undefined ? {} : { profile: claims.profile }),
    },
  };
}
