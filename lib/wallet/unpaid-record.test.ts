import { describe, expect, it } from "vitest";
import type { PaymentRecord } from "../db/schema";
import type { Offer, PaymentOption } from "../protocol/offer";
import { KEPT_OFFER_CHARS, KEPT_TEXT_CHARS, unpaidRecord } from "./unpaid-record";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAY_TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
const OTHER = "0x1111111111111111111111111111111111111111";

function option(payTo: `0x${string}`, raw: Record<string, unknown> = {}): PaymentOption {
  return {
    scheme: "exact",
    network: "eip155:8453",
    chainId: 8453,
    asset: USDC,
    amount: 10_000n,
    decimals: 6,
    symbol: "USDC",
    payTo,
    maxTimeoutSeconds: 60,
    eip712: { name: "USD Coin", version: "2" },
    raw,
  };
}

/** An x402 price padded by its page to `padding` characters in each free-form place. */
function record(state: PaymentRecord["state"], padding: number): PaymentRecord {
  const bulk = "A".repeat(padding);
  const offer: Offer = {
    protocol: "x402-v2",
    transport: "http",
    receiver: PAY_TO,
    claimedBy: "https://api.example",
    resource: { kind: "http", method: "GET", url: `https://api.example/search?q=${bulk}` },
    description: `Amount: 0.00 USDC ${bulk}`,
    options: [option(OTHER, { extra: bulk }), option(PAY_TO, { extra: bulk })],
    x402: { version: 2, paymentRequired: { accepts: [{ extra: bulk }], error: bulk } },
  };
  return {
    id: "p1",
    createdAt: 1,
    updatedAt: 2,
    origin: "https://agent.example",
    receiver: PAY_TO,
    state,
    resource: offer.resource,
    amount: "10000",
    decimals: 6,
    symbol: "USDC",
    network: "eip155:8453",
    asset: USDC,
    payTo: PAY_TO,
    offer,
    reason: "You declined the payment",
  };
}

const size = (value: unknown) =>
  JSON.stringify(value, (_key, member: unknown) =>
    typeof member === "bigint" ? member.toString() : member,
  ).length;

describe("unpaidRecord", () => {
  it("keeps a large price of a request that ended unpaid as its summary: who, what, how much, why", () => {
    const large = record("declined", 60_000);
    expect(size(large)).toBeGreaterThan(300_000);
    const kept = unpaidRecord(large);
    expect(size(kept)).toBeLessThan(KEPT_OFFER_CHARS);
    expect(kept.offerTrimmed).toBe(true);
    expect(kept.offer.x402).toBeUndefined();
    // The option the request was for, without its rail as received.
    expect(kept.offer.options).toEqual([{ ...option(PAY_TO), raw: {} }]);
    expect(kept.offer.description).toHaveLength(KEPT_TEXT_CHARS + 1);
    expect(kept.offer.description.startsWith("Amount: 0.00 USDC AAA")).toBe(true);
    expect(kept.resource).toEqual(kept.offer.resource);
    expect(kept.resource.kind === "http" && kept.resource.url.length).toBe(KEPT_TEXT_CHARS + 1);
    expect(kept).toMatchObject({
      id: "p1",
      state: "declined",
      origin: "https://agent.example",
      amount: "10000",
      payTo: PAY_TO,
      reason: "You declined the payment",
      offer: { protocol: "x402-v2", receiver: PAY_TO, claimedBy: "https://api.example" },
    });
  });

  it("keeps an ordinary price whole, and every price of a request that was paid or may still be", () => {
    const small = record("refused", 10);
    expect(unpaidRecord(small)).toBe(small);
    for (const state of ["quoted", "approved", "signed", "settled", "failed"] as const) {
      const large = record(state, 60_000);
      expect(unpaidRecord(large)).toBe(large);
    }
    const charged = {
      ...record("expired", 60_000),
      charge: { currency: "USD", micro: "10000", chargedAt: 1 },
    };
    expect(unpaidRecord(charged)).toBe(charged);
  });
});
