import { describe, expect, it } from "vitest";
import {
  alsoListing,
  makeReceiver,
  NOW,
  ORIGIN,
  quoteInput,
  RAIL,
  SOLANA_RAIL,
  T,
} from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import type { ProtocolErrorCode } from "../errors";
import type { OfferedRail } from "./claims";
import { signQuote, verifyQuote } from "./quote";
import { quoteToOffer } from "./quote-to-offer";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

describe("quoteToOffer", () => {
  it("maps a verified Quote to the normalized Offer", async () => {
    const receiver = await makeReceiver();
    const jws = await signQuote(quoteInput({ profile: "L2" }), receiver.key);
    const quote = await verifyQuote(jws, { descriptor: receiver.descriptor, now: NOW });
    const offer = quoteToOffer(quote, "http");
    expect(offer).toEqual({
      protocol: "stipendex",
      transport: "http",
      receiver: ORIGIN,
      resource: { kind: "http", method: "GET", url: `${ORIGIN}/search?q=x` },
      description: "One web search",
      displayTotal: { amount: "0.005", currency: "USD" },
      options: [
        {
          scheme: "exact",
          network: "eip155:8453",
          chainId: 8453,
          asset: RAIL.asset,
          amount: 5000n,
          decimals: 6,
          symbol: "USDC",
          payTo: RAIL.payTo,
          maxTimeoutSeconds: 60,
          eip712: { name: "USD Coin", version: "2" },
          raw: RAIL,
        },
      ],
      quote: { jws, id: "q-1", hash: quote.hash, issuedAt: T, expiresAt: T + 120, profile: "L2" },
    });
    expect(() => quoteToOffer(quote, "mcp")).toThrow(refused("transport-mismatch"));
  });

  it("maps an mcp resource without extra members", async () => {
    const receiver = await makeReceiver();
    const mcp = {
      server: `${ORIGIN}/mcp`,
      tool: "web_search",
      argsHash: "a".repeat(43),
      note: "x",
    };
    const jws = await signQuote(quoteInput({ resource: { mcp } }), receiver.key);
    const quote = await verifyQuote(jws, { descriptor: receiver.descriptor, now: NOW });
    const offer = quoteToOffer(quote, "mcp");
    expect(offer.resource).toEqual({
      kind: "mcp",
      server: mcp.server,
      tool: "web_search",
      argsHash: mcp.argsHash,
    });
    expect(offer.quote).not.toHaveProperty("profile");
  });

  it("leaves out the rails on chains the wallet does not pay on, and says so when none is left", async () => {
    const receiver = await makeReceiver();
    const descriptor = alsoListing(receiver.descriptor, SOLANA_RAIL);
    const verified = async (rails: OfferedRail[]) =>
      verifyQuote(await signQuote(quoteInput({ rails }), receiver.key), { descriptor, now: NOW });
    const offer = quoteToOffer(await verified([SOLANA_RAIL, RAIL]), "http");
    expect(offer.options.map((option) => option.raw)).toEqual([RAIL]);
    const solanaOnly = await verified([SOLANA_RAIL]);
    expect(() => quoteToOffer(solanaOnly, "http")).toThrow(
      expect.objectContaining({
        name: "ProtocolError",
        code: "unknown-network",
        message: `Quote q-1 offers no rail on an EVM chain this wallet pays on, only ${SOLANA_RAIL.network}`,
      }),
    );
  });
});
