import { beforeAll, describe, expect, it } from "vitest";
import {
  makeReceiver,
  NOW,
  quoteInput,
  RAIL,
  T,
  type TestReceiver,
} from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import type { StipendexError } from "../../errors";
import { signEnvelope } from "./envelope-jwt";
import {
  AmountNotIntegerError,
  AmountOutOfRangeError,
  BadSignatureError,
  ExpiredError,
  InvalidClaimsError,
  IssuerMismatchError,
  KeyNotInDescriptorError,
  LifetimeOutOfRangeError,
  MalformedJsonFormError,
  MalformedJwsError,
  NegativeAmountError,
  NotYetValidError,
  ObjectTypeMismatchError,
  RailNotInDescriptorError,
  TotalMismatchError,
  UnknownObjectTypeError,
  WrongTypError,
} from "./errors";
import { readJsonForm } from "./json-form";
import { verifyQuote } from "./quote";

type ErrorClass = abstract new (...args: never[]) => StipendexError;
type Case = [
  label: string,
  make: (r: TestReceiver, other: TestReceiver) => Promise<unknown> | unknown,
  error: ErrorClass,
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
  ["null", () => null, MalformedJsonFormError],
  ["a string", () => "quote", MalformedJsonFormError],
  ["an array", () => [], MalformedJsonFormError],
  ["no marker", () => ({ jws: "a.b.c" }), MalformedJsonFormError],
  ["numeric marker", () => ({ stipendex: 1, jws: "a.b.c" }), MalformedJsonFormError],
  ["proof marker", () => ({ stipendex: "proof/0.1", jws: "a.b.c" }), ObjectTypeMismatchError],
  ["future version", () => ({ stipendex: "quote/0.2", jws: "a.b.c" }), UnknownObjectTypeError],
  ["jws not a string", () => ({ stipendex: "quote/0.1", jws: {} }), MalformedJsonFormError],
  ["jws two segments", () => ({ stipendex: "quote/0.1", jws: "a.b" }), MalformedJwsError],
  [
    "jws header not JSON",
    () => ({ stipendex: "quote/0.1", jws: "bm90IGpzb24.e30.AQ" }),
    MalformedJwsError,
  ],
  [
    "unsigned (alg none)",
    () => ({ stipendex: "quote/0.1", jws: "eyJhbGciOiJub25lIn0.e30.AQ" }),
    MalformedJwsError,
  ],
  ["wrong typ", (r) => quote(r, {}, "receipt"), WrongTypError],
  ["expired", (r) => quote(r, { iat: T - 300, exp: T - 10 }), ExpiredError],
  ["not yet valid", (r) => quote(r, { iat: T + 60, exp: T + 160 }), NotYetValidError],
  ["lifetime 10 s", (r) => quote(r, { exp: T + 10 }), LifetimeOutOfRangeError],
  ["lifetime 1 h", (r) => quote(r, { exp: T + 3600 }), LifetimeOutOfRangeError],
  ["signed by another key with the same kid", (_r, o) => quote(o, {}), BadSignatureError],
  [
    "unknown kid",
    (_r, o) => quote({ ...o, key: { ...o.key, kid: "r7" } }, {}),
    KeyNotInDescriptorError,
  ],
  [
    "iss of another receiver",
    (r) => quote(r, { iss: "https://other.example" }),
    IssuerMismatchError,
  ],
  ["no jti", (r) => quote(r, { jti: undefined }), InvalidClaimsError],
  ["exp as a string", (r) => quote(r, { exp: String(T + 100) }), InvalidClaimsError],
  ["no rails", (r) => quote(r, { rails: [] }), InvalidClaimsError],
  ["unknown rail kind", (r) => quote(r, rail({ rail: "x402-upto" })), InvalidClaimsError],
  ["solana network", (r) => quote(r, rail({ network: "solana:mainnet" })), InvalidClaimsError],
  ["asset as a symbol", (r) => quote(r, rail({ asset: "USDC" })), InvalidClaimsError],
  ["no decimals", (r) => quote(r, rail({ decimals: undefined })), InvalidClaimsError],
  ["fractional decimals", (r) => quote(r, rail({ decimals: 6.5 })), InvalidClaimsError],
  ["amount as a JSON number", (r) => quote(r, rail({ amount: 5000 })), AmountNotIntegerError],
  ["amount with decimals", (r) => quote(r, rail({ amount: "0.005" })), AmountNotIntegerError],
  ["amount in exponent form", (r) => quote(r, rail({ amount: "5e3" })), AmountNotIntegerError],
  ["negative amount", (r) => quote(r, rail({ amount: "-5000" })), NegativeAmountError],
  [
    "amount above uint256",
    (r) => quote(r, rail({ amount: (2n ** 256n).toString() })),
    AmountOutOfRangeError,
  ],
  [
    "payTo not listed",
    (r) => quote(r, rail({ payTo: "0x000000000000000000000000000000000000dEaD" })),
    RailNotInDescriptorError,
  ],
  [
    "asset not listed",
    (r) => quote(r, rail({ asset: "0xdAC17F958D2ee523a2206206994597C13D831ec7" })),
    RailNotInDescriptorError,
  ],
  ["network not listed", (r) => quote(r, rail({ network: "eip155:1" })), RailNotInDescriptorError],
  [
    'total "10000" meant as 0.01',
    (r) => quote(r, { total: { amount: "10000", currency: "USD" }, ...rail({ amount: "10000" }) }),
    TotalMismatchError,
  ],
  [
    "total in EUR for USDC",
    (r) => quote(r, { total: { amount: "0.005", currency: "EUR" } }),
    TotalMismatchError,
  ],
  [
    "total as a number",
    (r) => quote(r, { total: { amount: 0.005, currency: "USD" } }),
    InvalidClaimsError,
  ],
  [
    "description with a newline",
    (r) => quote(r, { description: "Search\nApproved by your bank" }),
    InvalidClaimsError,
  ],
  [
    "resource both http and mcp",
    (r) => quote(r, { resource: { http: { method: "GET", url: "https://a.example/" }, mcp: {} } }),
    InvalidClaimsError,
  ],
  [
    "resource url not http",
    (r) => quote(r, { resource: { http: { method: "GET", url: "javascript:alert(1)" } } }),
    InvalidClaimsError,
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

  it.each(CORPUS)("%s", async (_label, make, ErrorClass) => {
    const input = await make(receiver, impostor);
    const read = async () =>
      verifyQuote(readJsonForm(input, "quote"), { descriptor: receiver.descriptor, now: NOW });
    await expect(read()).rejects.toBeInstanceOf(ErrorClass);
  });
});
