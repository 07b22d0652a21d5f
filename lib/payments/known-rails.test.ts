import { describe, expect, it } from "vitest";
import { usdcOption } from "../../tests/unit-support/payments/offers";
import type { Offer, PaymentOption } from "../protocol/offer";
import { createRegistry } from "../protocol/rails/registry";
import { knownOptions } from "./known-rails";

const usdc = usdcOption();

function offer(...options: PaymentOption[]): Offer {
  return {
    protocol: "stipendex",
    transport: "http",
    receiver: "https://api.example",
    resource: { kind: "http", method: "GET", url: "https://api.example/x" },
    description: "x",
    options,
  };
}

describe("knownOptions", () => {
  const registry = createRegistry();

  it("keeps options on known tokens with their real decimals", () => {
    const bad = { ...usdc, asset: "0x0000000000000000000000000000000000000001" as const };
    expect(knownOptions(offer(bad, usdc), registry).options).toEqual([usdc]);
  });

  it("refuses a rail that states other decimals than the token has", () => {
    expect(() => knownOptions(offer({ ...usdc, decimals: 2 }), registry)).toThrow(
      expect.objectContaining({ name: "PaymentError", code: "decimals-mismatch" }),
    );
  });

  it("refuses a rail that names another EIP-712 domain than the token's, like wrong decimals", () => {
    const evil = { ...usdc, eip712: { name: "Evil Coin", version: "9" } };
    expect(knownOptions(offer(evil, usdc), registry).options).toEqual([usdc]);
    expect(() => knownOptions(offer(evil), registry)).toThrow(
      expect.objectContaining({
        name: "ProtocolError",
        code: "domain-mismatch",
        message: `Rail names the EIP-712 domain "Evil Coin" version "9" for USDC (${usdc.asset} on eip155:84532), whose contract signs as "USDC" version "2"`,
      }),
    );
  });

  it("refuses unknown networks and assets with their own errors", () => {
    expect(() => knownOptions(offer({ ...usdc, network: "eip155:999999" }), registry)).toThrow(
      expect.objectContaining({ name: "ProtocolError", code: "unknown-network" }),
    );
    expect(() =>
      knownOptions(
        offer({ ...usdc, asset: "0x0000000000000000000000000000000000000001" }),
        registry,
      ),
    ).toThrow(expect.objectContaining({ name: "ProtocolError", code: "unknown-asset" }));
  });

  it("shows the registry's symbol, never the one the receiver wrote on the rail", () => {
    const [kept] = knownOptions(offer({ ...usdc, symbol: "DAI" }), registry).options;
    expect(kept?.symbol).toBe("USDC");
  });

  it("checks the stated total against every rail of a known-currency token, whatever symbol it claims", () => {
    const priced = (total: { amount: string; currency: string }, symbol: string) => ({
      ...offer({ ...usdc, symbol }),
      displayTotal: total,
    });
    // 5000 atomic USDC is 0.005 USD: a total of 5 USD under another symbol is refused.
    expect(() => knownOptions(priced({ amount: "5", currency: "USD" }, "XYZ"), registry)).toThrow(
      expect.objectContaining({ name: "PaymentError", code: "total-disagrees-with-rail" }),
    );
    expect(
      knownOptions(priced({ amount: "0.0050", currency: "USD" }, "XYZ"), registry).options,
    ).toHaveLength(1);
  });
});
