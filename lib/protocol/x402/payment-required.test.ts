import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  httpResource,
  readContext,
  v1Body,
  v1Requirement,
  v2PaymentRequired,
  v2Requirement,
} from "../../../tests/unit-support/protocol/x402/test-fixtures";
import { StipendexError } from "../../errors";
import { readPaymentRequired } from "./payment-required";

describe("readPaymentRequired", () => {
  it("reads a v2 PaymentRequired into an Offer", () => {
    const offer = readPaymentRequired(v2PaymentRequired, "http", readContext());
    expect(offer).toMatchObject({
      protocol: "x402-v2",
      transport: "http",
      receiver: "http://127.0.0.1:4021",
      resource: httpResource,
      description: "Weather for one city",
      x402: { version: 2, paymentRequired: v2PaymentRequired },
    });
    expect(offer.options).toHaveLength(1);
    expect(offer.options[0]?.raw).toBe(v2Requirement);
  });

  it("reads a v1 body and takes the description from the requirement", () => {
    const offer = readPaymentRequired(v1Body, "mcp", readContext());
    expect(offer.protocol).toBe("x402-v1");
    expect(offer.transport).toBe("mcp");
    expect(offer.description).toBe("Weather for one city");
    expect(offer.options[0]?.amount).toBe(10000n);
  });

  it("skips what it cannot pay and keeps the rest, in order", () => {
    const offer = readPaymentRequired(
      {
        ...v2PaymentRequired,
        accepts: [
          { ...v2Requirement, scheme: "upto" },
          { ...v2Requirement, network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" },
          { ...v2Requirement, amount: "20000" },
          v2Requirement,
        ],
      },
      "http",
      readContext(),
    );
    expect(offer.options.map((o) => o.amount)).toEqual([20000n, 10000n]);
  });

  it("reads the first 32 of a longer list of options, and says the rest were not read", () => {
    const many = (first: unknown) => ({
      ...v2PaymentRequired,
      accepts: [first, ...Array(39).fill({ ...v2Requirement, scheme: "upto" }), v2Requirement],
    });
    const offer = readPaymentRequired(many(v2Requirement), "http", readContext());
    expect(offer.options).toHaveLength(1);
    expect(() =>
      readPaymentRequired(many({ ...v2Requirement, scheme: "upto" }), "http", readContext()),
    ).toThrow(/accepts\[32\] and after: not read \(the first 32 are\)/);
  });

  it("lists why each option was skipped when none is payable", () => {
    const value = {
      ...v2PaymentRequired,
      accepts: [
        { ...v2Requirement, scheme: "upto" },
        { ...v2Requirement, asset: "0x0000000000000000000000000000000000000001" },
        { ...v2Requirement, extra: { assetTransferMethod: "permit2", name: "USDC", version: "2" } },
      ],
    };
    let caught: unknown;
    try {
      readPaymentRequired(value, "http", readContext());
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ name: "ProtocolError", code: "no-payable-option" });
    const { message } = caught as StipendexError;
    expect(message).toContain('accepts[0]: unsupported-scheme: accepts[0].scheme is "upto"');
    expect(message).toContain("; accepts[1]: unknown-asset: unknown asset");
    expect(message).toContain("; accepts[2]: unsupported-transfer-method: accepts[2].extra");
  });

  it("pays through the other options when one names another domain for a known token", () => {
    const wrongDomain = { ...v2Requirement, extra: { name: "USD Coin", version: "2" } };
    const value = { ...v2PaymentRequired, accepts: [wrongDomain, v2Requirement] };
    expect(readPaymentRequired(value, "http", readContext()).options.map((o) => o.raw)).toEqual([
      v2Requirement,
    ]);
    expect(() =>
      readPaymentRequired({ ...value, accepts: [wrongDomain] }, "http", readContext()),
    ).toThrow(
      expect.objectContaining({
        code: "no-payable-option",
        message: expect.stringContaining("accepts[0]: domain-mismatch: accepts[0].extra names"),
      }),
    );
  });

  it("pays a local-chain token given at runtime", () => {
    const token = {
      network: "eip155:31337",
      address: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      symbol: "USDC",
      decimals: 6,
      eip712: { name: "USD Coin", version: "2" },
    };
    const value = {
      ...v2PaymentRequired,
      accepts: [
        { ...v2Requirement, network: "eip155:31337", asset: token.address, extra: token.eip712 },
      ],
    };
    expect(() => readPaymentRequired(value, "http", readContext())).toThrow(
      expect.objectContaining({ name: "ProtocolError", code: "no-payable-option" }),
    );
    expect(readPaymentRequired(value, "http", readContext([token])).options[0]?.chainId).toBe(
      31337,
    );
  });

  it("never crashes on random input: a named error or an Offer with options", () => {
    const requirement = fc.record(
      {
        scheme: fc.constantFrom("exact", "upto", 1),
        network: fc.constantFrom("eip155:84532", "base-sepolia", "eip155:1", "eip155:0", "x", 8453),
        amount: fc.oneof(
          fc.string(),
          fc.bigInt({ min: -5n, max: 10n ** 20n }).map(String),
          fc.integer(),
        ),
        maxAmountRequired: fc.oneof(fc.string(), fc.nat().map(String)),
        asset: fc.constantFrom(v2Requirement.asset, "USDC", "0x00", null),
        payTo: fc.constantFrom(v2Requirement.payTo, "0x1", ""),
        maxTimeoutSeconds: fc.oneof(fc.integer(), fc.double(), fc.string()),
        extra: fc.oneof(fc.constant({ name: "USDC", version: "2" }), fc.anything()),
      },
      { requiredKeys: [] },
    );
    const paymentRequired = fc.record(
      {
        x402Version: fc.oneof(fc.constantFrom(1, 2), fc.anything()),
        accepts: fc.oneof(
          fc.array(fc.oneof(requirement, fc.anything()), { maxLength: 4 }),
          fc.anything(),
        ),
        resource: fc.oneof(fc.constant(v2PaymentRequired.resource), fc.anything()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(paymentRequired, fc.anything()), (value) => {
        try {
          const offer = readPaymentRequired(value, "http", readContext());
          expect(offer.options.length).toBeGreaterThan(0);
          for (const option of offer.options) expect(option.amount).toBeGreaterThan(0n);
        } catch (error) {
          expect(error).toBeInstanceOf(StipendexError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("keeps a v1 requirement verbatim", () => {
    expect(readPaymentRequired(v1Body, "http", readContext()).options[0]?.raw).toBe(v1Requirement);
  });
});
