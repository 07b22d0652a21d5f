import { encodePaymentRequiredHeader } from "@x402/core/http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  PAY_TO,
  readContext,
  v1Body,
  v1Requirement,
  v2PaymentRequired,
  v2Requirement,
} from "../../../tests/unit-support/protocol/x402/test-fixtures";
import { StipendexError } from "../../errors";
import type { ProtocolErrorCode } from "../errors";
import { readHttp402 } from "./http";
import { encodeBase64Json, MAX_INPUT_BYTES } from "./wire";

function respond(body: string, headers: Record<string, string> = {}) {
  return { headers: new Headers(headers), body };
}

const v2Header = (value: unknown) => ({ "payment-required": encodeBase64Json(value) });
const v1 = (requirement: Record<string, unknown>) =>
  JSON.stringify({ ...v1Body, accepts: [requirement] });
const v2 = (requirement: Record<string, unknown>) =>
  v2Header({ ...v2PaymentRequired, accepts: [requirement] });

describe("readHttp402", () => {
  it("reads the PAYMENT-REQUIRED header that @x402/core encodes", () => {
    const header = encodePaymentRequiredHeader(v2PaymentRequired);
    const offer = readHttp402(respond("{}", { "PAYMENT-REQUIRED": header }), readContext());
    expect(offer.protocol).toBe("x402-v2");
    expect(offer.options[0]).toMatchObject({ amount: 10000n, payTo: PAY_TO, chainId: 84532 });
    expect(offer.x402?.paymentRequired).toEqual(v2PaymentRequired);
  });

  it("prefers the header over a body", () => {
    const offer = readHttp402(
      respond(JSON.stringify(v1Body), v2Header(v2PaymentRequired)),
      readContext(),
    );
    expect(offer.protocol).toBe("x402-v2");
  });

  it("reads seed 004's 402 as printed: no x402Version, no timeout, the asset by symbol", () => {
    const seed = {
      scheme: "exact",
      network: "x-layer",
      amount: "10000",
      asset: "USDT0",
      payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
      extra: { name: "USDTToken", version: "1" },
    };
    const offer = readHttp402(
      { headers: { get: () => null }, body: JSON.stringify({ accepts: [seed] }) },
      readContext(),
    );
    expect(offer.protocol).toBe("x402-v1");
    expect(offer.defaults).toEqual([{ field: "x402Version", value: "1" }]);
    const [option] = offer.options;
    expect(option).toMatchObject({
      network: "eip155:196",
      asset: "0x779Ded0c9e1022225f8E0630b35a9b54bE713736",
      amount: 10000n,
      maxTimeoutSeconds: 60,
      eip712: { name: "USDTToken", version: "1" },
    });
    expect(option?.defaults).toEqual([{ field: "accepts[0].maxTimeoutSeconds", value: "60 s" }]);
  });

  it("signs with the registry's domain for a known token when the requirement gives none, and says so", () => {
    const offer = readHttp402(
      respond("{}", v2({ ...v2Requirement, extra: undefined })),
      readContext(),
    );
    const [option] = offer.options;
    expect(option?.eip712).toEqual({ name: "USDC", version: "2" });
    expect(option?.defaults).toEqual([
      { field: "accepts[0].extra.name/version", value: "USDC / 2 (the wallet's own for USDC)" },
    ]);
  });

  it("reads a v1 JSON body", () => {
    const offer = readHttp402(respond(JSON.stringify(v1Body)), readContext());
    expect(offer.protocol).toBe("x402-v1");
    expect(offer.options[0]?.raw).toEqual(v1Requirement);
    // An empty PAYMENT-REQUIRED header is none (@x402/core reads it so).
    const beside = readHttp402(
      respond(JSON.stringify(v1Body), { "PAYMENT-REQUIRED": " " }),
      readContext(),
    );
    expect(beside.options[0]?.raw).toEqual(v1Requirement);
  });

  type Case = [
    name: string,
    body: string,
    headers: Record<string, string>,
    code: ProtocolErrorCode,
    inner?: ProtocolErrorCode,
  ];
  const big = "x".repeat(MAX_INPUT_BYTES);
  const corpus: Case[] = [
    ["empty body, no header", "", {}, "not-x402-payment-required"],
    ["HTML body", "<html>402</html>", {}, "not-json"],
    ["truncated JSON", '{"x402Version":1,"accepts":[', {}, "not-json"],
    ["JSON with comments", '{"x402Version":1 /* hi */}', {}, "not-json"],
    ["single-quoted JSON", "{'x402Version':1}", {}, "not-json"],
    ["body is a number", "402", {}, "malformed-payment-required"],
    ["body is null", "null", {}, "malformed-payment-required"],
    ["body is an array", "[]", {}, "malformed-payment-required"],
    [
      "x402Version null",
      JSON.stringify({ x402Version: null, accepts: [v1Requirement] }),
      {},
      "unsupported-x402-version",
    ],
    [
      "x402Version 3",
      JSON.stringify({ ...v1Body, x402Version: 3 }),
      {},
      "unsupported-x402-version",
    ],
    [
      "x402Version as string",
      JSON.stringify({ ...v1Body, x402Version: "1" }),
      {},
      "unsupported-x402-version",
    ],
    [
      "x402Version 1.5",
      JSON.stringify({ ...v1Body, x402Version: 1.5 }),
      {},
      "unsupported-x402-version",
    ],
    ["accepts missing", JSON.stringify({ x402Version: 1 }), {}, "malformed-payment-required"],
    [
      "accepts is an object",
      JSON.stringify({ x402Version: 1, accepts: {} }),
      {},
      "malformed-payment-required",
    ],
    ["accepts empty", JSON.stringify({ x402Version: 1, accepts: [] }), {}, "no-payable-option"],
    [
      "accepts with none payable in its first 32",
      JSON.stringify({
        x402Version: 1,
        accepts: [...Array(32).fill({ ...v1Requirement, scheme: "upto" }), v1Requirement],
      }),
      {},
      "no-payable-option",
      "unsupported-scheme",
    ],
    [
      "requirement is a string",
      JSON.stringify({ x402Version: 1, accepts: ["exact"] }),
      {},
      "no-payable-option",
      "malformed-payment-required",
    ],
    [
      "requirement is null",
      JSON.stringify({ x402Version: 1, accepts: [null] }),
      {},
      "no-payable-option",
      "malformed-payment-required",
    ],
    [
      "scheme upto",
      v1({ ...v1Requirement, scheme: "upto" }),
      {},
      "no-payable-option",
      "unsupported-scheme",
    ],
    [
      "scheme missing",
      v1({ ...v1Requirement, scheme: undefined }),
      {},
      "no-payable-option",
      "unsupported-scheme",
    ],
    [
      "unknown v1 network",
      v1({ ...v1Requirement, network: "sei" }),
      {},
      "no-payable-option",
      "unknown-network",
    ],
    [
      "solana network",
      v1({ ...v1Requirement, network: "solana" }),
      {},
      "no-payable-option",
      "unknown-network",
    ],
    [
      "unknown chain id",
      "",
      v2({ ...v2Requirement, network: "eip155:999" }),
      "no-payable-option",
      "unknown-network",
    ],
    [
      "chain id with leading zero",
      "",
      v2({ ...v2Requirement, network: "eip155:084532" }),
      "no-payable-option",
      "unknown-network",
    ],
    [
      "network as number",
      "",
      v2({ ...v2Requirement, network: 84532 }),
      "no-payable-option",
      "unknown-network",
    ],
    [
      "unknown asset",
      v1({ ...v1Requirement, asset: "0x1111111111111111111111111111111111111111" }),
      {},
      "no-payable-option",
      "unknown-asset",
    ],
    [
      "mainnet USDC on testnet",
      "",
      v2({ ...v2Requirement, asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" }),
      "no-payable-option",
      "unknown-asset",
    ],
    [
      "asset missing",
      "",
      v2({ ...v2Requirement, asset: undefined }),
      "no-payable-option",
      "unknown-asset",
    ],
    [
      "permit2 transfer",
      "",
      v2({ ...v2Requirement, extra: { ...v2Requirement.extra, assetTransferMethod: "permit2" } }),
      "no-payable-option",
      "unsupported-transfer-method",
    ],
    [
      "amount as JSON number (decimals trap)",
      "",
      v2({ ...v2Requirement, amount: 10000 }),
      "no-payable-option",
      "amount-not-integer",
    ],
    [
      "amount as display value",
      "",
      v2({ ...v2Requirement, amount: "0.01" }),
      "no-payable-option",
      "amount-not-integer",
    ],
    [
      "amount in exponent form",
      "",
      v2({ ...v2Requirement, amount: "1e4" }),
      "no-payable-option",
      "amount-not-integer",
    ],
    [
      "amount hex",
      "",
      v2({ ...v2Requirement, amount: "0x2710" }),
      "no-payable-option",
      "amount-not-integer",
    ],
    [
      "amount empty",
      "",
      v2({ ...v2Requirement, amount: "" }),
      "no-payable-option",
      "amount-not-integer",
    ],
    [
      "amount with spaces",
      "",
      v2({ ...v2Requirement, amount: " 10000" }),
      "no-payable-option",
      "amount-not-integer",
    ],
    [
      "v1 maxAmountRequired as number",
      v1({ ...v1Requirement, maxAmountRequired: 10000 }),
      {},
      "no-payable-option",
      "amount-not-integer",
    ],
    [
      "negative amount",
      "",
      v2({ ...v2Requirement, amount: "-10000" }),
      "no-payable-option",
      "negative-amount",
    ],
    [
      "negative v1 amount",
      v1({ ...v1Requirement, maxAmountRequired: "-1" }),
      {},
      "no-payable-option",
      "negative-amount",
    ],
    ["zero amount", "", v2({ ...v2Requirement, amount: "0" }), "no-payable-option", "zero-amount"],
    [
      "huge amount (10000 read as whole units)",
      "",
      v2({ ...v2Requirement, amount: "10000000000000000" }),
      "no-payable-option",
      "absurd-amount",
    ],
    [
      "uint256 max amount",
      "",
      v2({ ...v2Requirement, amount: (2n ** 256n - 1n).toString() }),
      "no-payable-option",
      "absurd-amount",
    ],
    [
      "amount past uint256 digits",
      "",
      v2({ ...v2Requirement, amount: "9".repeat(100) }),
      "no-payable-option",
      "amount-not-integer",
    ],
    [
      "payTo not an address",
      "",
      v2({ ...v2Requirement, payTo: "0x1234" }),
      "no-payable-option",
      "invalid-address",
    ],
    [
      "payTo bad checksum",
      "",
      v2({ ...v2Requirement, payTo: "0x209693bC6afc0C5328bA36FaF03C514EF312287C" }),
      "no-payable-option",
      "invalid-address",
    ],
    [
      "payTo missing",
      "",
      v2({ ...v2Requirement, payTo: undefined }),
      "no-payable-option",
      "invalid-address",
    ],
    [
      "timeout zero",
      "",
      v2({ ...v2Requirement, maxTimeoutSeconds: 0 }),
      "no-payable-option",
      "invalid-timeout",
    ],
    [
      // The receiver refuses an authorization with less than 6 s left: never payable.
      "timeout six seconds",
      "",
      v2({ ...v2Requirement, maxTimeoutSeconds: 6 }),
      "no-payable-option",
      "invalid-timeout",
    ],
    [
      "timeout as string",
      "",
      v2({ ...v2Requirement, maxTimeoutSeconds: "60" }),
      "no-payable-option",
      "invalid-timeout",
    ],
    [
      "timeout fractional",
      "",
      v2({ ...v2Requirement, maxTimeoutSeconds: 60.5 }),
      "no-payable-option",
      "invalid-timeout",
    ],
    [
      "extra.name empty",
      "",
      v2({ ...v2Requirement, extra: { name: "", version: "2" } }),
      "no-payable-option",
      "domain-missing",
    ],
    [
      "extra.name missing",
      "",
      v2({ ...v2Requirement, extra: { version: "2" } }),
      "no-payable-option",
      "domain-missing",
    ],
    [
      "extra.version missing",
      "",
      v2({ ...v2Requirement, extra: { name: "USDC" } }),
      "no-payable-option",
      "domain-missing",
    ],
    [
      "extra.version a number",
      "",
      v2({ ...v2Requirement, extra: { name: "USDC", version: 2 } }),
      "no-payable-option",
      "domain-missing",
    ],
    [
      "extra.name empty",
      v1({ ...v1Requirement, extra: { name: "", version: "2" } }),
      {},
      "no-payable-option",
      "domain-missing",
    ],
    [
      "extra is a string",
      "",
      v2({ ...v2Requirement, extra: "USDC" }),
      "no-payable-option",
      "malformed-payment-required",
    ],
    [
      "v2 resource a string",
      "",
      v2Header({ ...v2PaymentRequired, resource: "x" }),
      "malformed-payment-required",
    ],
    ["header not base64", "", { "payment-required": "{not base64}" }, "header-not-base64"],
    [
      "header base64url",
      "",
      {
        "payment-required": `${encodeBase64Json({ a: "~~~~" }).replace(/\+/g, "-").replace(/\//g, "_")}-_`,
      },
      "header-not-base64",
    ],
    ["header bad padding", "", { "payment-required": "eyJ4IjoxfQ===" }, "header-not-base64"],
    ["header not UTF-8", "", { "payment-required": "gICA" }, "header-not-base64"],
    ["header base64 of text", "", { "payment-required": btoa("payment required") }, "not-json"],
    ["header empty, no body", "", { "payment-required": "" }, "not-x402-payment-required"],
    ["header oversized", "", { "payment-required": btoa(big) }, "body-too-large"],
    ["body oversized", JSON.stringify({ ...v1Body, pad: big }), {}, "body-too-large"],
  ];

  it("has a bad-input corpus of at least 40 cases", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
  });

  it.each(corpus)("%s: %s", (_name, body, headers, code, inner) => {
    let caught: unknown;
    try {
      readHttp402(respond(body, headers), readContext());
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ name: "ProtocolError", code });
    // The one option's own refusal is listed in the message, by index and code.
    if (inner) {
      expect(caught).toMatchObject({ message: expect.stringContaining(`accepts[0]: ${inner}: `) });
    }
  });

  it("never crashes on random bodies or headers", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        fc.option(fc.oneof(fc.base64String(), fc.string()), { nil: undefined }),
        (body, header) => {
          try {
            const offer = readHttp402(
              respond(body, header === undefined ? {} : { "payment-required": header }),
              readContext(),
            );
            expect(offer.options.length).toBeGreaterThan(0);
          } catch (error) {
            expect(error).toBeInstanceOf(StipendexError);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
