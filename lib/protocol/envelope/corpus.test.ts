import { beforeAll, describe, expect, it } from "vitest";
import {
  makeReceiver,
  NOW,
  quoteInput,
  RAIL,
  T,
  type TestReceiver,
} from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import type { ProtocolErrorCode } from "../errors";
import { signEnvelope } from "./envelope-jwt";
import { readJsonForm } from "./json-form";
import { verifyQuote } from "./quote";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

type Case = [
  label: string,
  make: (r: TestReceiver, other: TestReceiver) => Promise<unknown> | unknown,
  code: ProtocolErrorCode,
];

/** Signs an arbitrary payload as a Quote so each case changes exactly one thing. */
const quote = (
  r: TestReceiver,
  patch: Record<string, unknown>,
  typ: "quote" | "receipt" = "quote",
) =>
  signEnvelope(typ, { ...quoteInput(), ...patch }, r.key, r.key.key).then((jws) => ({
    stipendex: "quote/0.1",
    jws,
  }));
const rail = (patch: Record<string, unknown>) => ({ rails: [{ ...RAIL, ...patch }] });

const CORPUS: Case[] = [
  ["null", () => null, "malformed-json-form"],
  ["a string", () => "quote", "malformed-json-form"],
  ["an array", () => [], "malformed-json-form"],
  ["no marker", () => ({ jws: "a.b.c" }), "malformed-json-form"],
  ["numeric marker", () => ({ stipendex: 1, jws: "a.b.c" }), "malformed-json-form"],
  ["proof marker", () => ({ stipendex: "proof/0.1", jws: "a.b.c" }), "object-type-mismatch"],
  ["future version", () => ({ stipendex: "quote/0.2", jws: "a.b.c" }), "unknown-object-type"],
  ["jws not a string", () => ({ stipendex: "quote/0.1", jws: {} }), "malformed-json-form"],
  ["jws two segments", () => ({ stipendex: "quote/0.1", jws: "a.b" }), "malformed-jws"],
  [
    "jws header not JSON",
    () => ({ stipendex: "quote/0.1", jws: "bm90IGpzb24.e30.AQ" }),
    "malformed-jws",
  ],
  [
    "unsigned (alg none)",
    () => ({ stipendex: "quote/0.1", jws: "eyJhbGciOiJub25lIn0.e30.AQ" }),
    "malformed-jws",
  ],
  ["wrong typ", (r) => quote(r, {}, "receipt"), "wrong-typ"],
  ["expired", (r) => quote(r, { iat: T - 300, exp: T - 10 }), "expired"],
  ["not yet valid", (r) => quote(r, { iat: T + 60, exp: T + 160 }), "not-yet-valid"],
  ["lifetime 10 s", (r) => quote(r, { exp: T + 10 }), "lifetime-out-of-range"],
  ["lifetime 1 h", (r) => quote(r, { exp: T + 3600 }), "lifetime-out-of-range"],
  ["signed by another key with the same kid", (_r, o) => quote(o, {}), "bad-signature"],
  [
    "unknown kid",
    (_r, o) => quote({ ...o, key: { ...o.key, kid: "r7" } }, {}),
    "key-not-in-descriptor",
  ],
  ["iss of another receiver", (r) => quote(r, { iss: "https://other.example" }), "issuer-mismatch"],
  ["no jti", (r) => quote(r, { jti: undefined }), "invalid-claims"],
  ["exp as a string", (r) => quote(r, { exp: String(T + 100) }), "invalid-claims"],
  ["no rails", (r) => quote(r, { rails: [] }), "invalid-claims"],
  ["unknown rail kind", (r) => quote(r, rail({ rail: "x402-upto" })), "invalid-claims"],
  ["network not CAIP-2", (r) => quote(r, rail({ network: "solana" })), "invalid-claims"],
  ["eip155 network by name", (r) => quote(r, rail({ network: "eip155:base" })), "invalid-claims"],
  [
    "solana network not listed",
    (r) => quote(r, rail({ network: "solana:mainnet" })),
    "rail-not-in-descriptor",
  ],
  ["asset as a symbol", (r) => quote(r, rail({ asset: "USDC" })), "invalid-claims"],
  ["no decimals", (r) => quote(r, rail({ decimals: undefined })), "invalid-claims"],
  ["fractional decimals", (r) => quote(r, rail({ decimals: 6.5 })), "invalid-claims"],
  ["amount as a JSON number", (r) => quote(r, rail({ amount: 5000 })), "amount-not-integer"],
  ["amount with decimals", (r) => quote(r, rail({ amount: "0.005" })), "amount-not-integer"],
  ["amount in exponent form", (r) => quote(r, rail({ amount: "5e3" })), "amount-not-integer"],
  ["negative amount", (r) => quote(r, rail({ amount: "-5000" })), "negative-amount"],
  [
    "amount above uint256",
    (r) => quote(r, rail({ amount: (2n ** 256n).toString() })),
    "amount-out-of-range",
  ],
  [
    "payTo not listed",
    (r) => quote(r, rail({ payTo: "0x000000000000000000000000000000000000dEaD" })),
    "rail-not-in-descriptor",
  ],
  [
    "asset not listed",
    (r) => quote(r, rail({ asset: "0xdAC17F958D2ee523a2206206994597C13D831ec7" })),
    "rail-not-in-descriptor",
  ],
  ["network not listed", (r) => quote(r, rail({ network: "eip155:1" })), "rail-not-in-descriptor"],
  [
    'total "10000" meant as 0.01',
    (r) => quote(r, { total: { amount: "10000", currency: "USD" }, ...rail({ amount: "10000" }) }),
    "total-mismatch",
  ],
  [
    "total in EUR for USDC",
    (r) => quote(r, { total: { amount: "0.005", currency: "EUR" } }),
    "total-mismatch",
  ],
  [
    "total as a number",
    (r) => quote(r, { total: { amount: 0.005, currency: "USD" } }),
    "invalid-claims",
  ],
  [
    "description with a newline",
    (r) => quote(r, { description: "Search\nApproved by your bank" }),
    "invalid-claims",
  ],
  [
    "resource both http and mcp",
    (r) => quote(r, { resource: { http: { method: "GET", url: "https://a.example/" }, mcp: {} } }),
    "invalid-claims",
  ],
  [
    "resource url not http",
    (r) => quote(r, { resource: { http: { method: "GET", url: "javascript:alert(1)" } } }),
    "invalid-claims",
  ],
];

describe("bad Quote corpus", () => {
  let receiver: TestReceiver;
  let impostor: TestReceiver;
  beforeAll(async () => {
    receiver = await makeReceiver();
    impostor = await makeReceiver(receiver.descriptor.id, "r1");
  });

  it("has at least 30 cases", () => expect(CORPUS.length).toBeGreaterThanOrEqual(30));

  it.each(CORPUS)("%s", async (_label, make, code) => {
    const input = await make(receiver, impostor);
    const read = async () =>
      verifyQuote(readJsonForm(input, "quote"), { descriptor: receiver.descriptor, now: NOW });
    await expect(read()).rejects.toThrow(refused(code));
  });
});
