import { describe, expect, it, vi } from "vitest";
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
import { StipendexError } from "../../errors";
import type { ProtocolErrorCode } from "../errors";
import { signEnvelope } from "./envelope-jwt";
import { objectHash } from "./object-hash";
import { signQuote, verifyQuote } from "./quote";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("Quote", () => {
  it("imports a descriptor's key once for every Quote it verifies, and a refreshed descriptor's afresh", async () => {
    const receiver = await makeReceiver();
    const jws = await signQuote(quoteInput(), receiver.key);
    const importKey = vi.spyOn(crypto.subtle, "importKey");
    try {
      for (let i = 0; i < 3; i++)
        await verifyQuote(jws, { descriptor: receiver.descriptor, now: NOW });
      expect(importKey).toHaveBeenCalledTimes(1);
      const refreshed = structuredClone(receiver.descriptor);
      await verifyQuote(jws, { descriptor: refreshed, now: NOW });
      expect(importKey).toHaveBeenCalledTimes(2);
    } finally {
      importKey.mockRestore();
    }
  });

  it("round-trips and binds the hash of the exact compact JWS", async () => {
    const receiver = await makeReceiver();
    const jws = await signQuote(quoteInput({ profile: "L2" }), receiver.key);
    const quote = await verifyQuote(jws, { descriptor: receiver.descriptor, now: NOW });
    expect(quote.claims).toMatchObject({
      stipendex: "quote/0.1",
      iss: ORIGIN,
      jti: "q-1",
      profile: "L2",
    });
    expect(quote.claims.rails).toEqual([RAIL]);
    expect(quote.header).toMatchObject({ alg: "EdDSA", kid: "r1", typ: "stipendex-quote+jwt" });
    expect(quote.hash).toBe(await objectHash(jws));
  });

  it("fails when any character of the token is changed", async () => {
    const receiver = await makeReceiver();
    const jws = await signQuote(quoteInput(), receiver.key);
    for (let i = 0; i < jws.length; i++) {
      const original = jws[i] ?? "";
      const next = original === "." ? "A" : BASE64URL[(BASE64URL.indexOf(original) + 1) % 64];
      const flipped = String.fromCharCode(original.charCodeAt(0) ^ 1);
      for (const replacement of [next, flipped]) {
        const tampered = jws.slice(0, i) + replacement + jws.slice(i + 1);
        await expect(
          verifyQuote(tampered, { descriptor: receiver.descriptor, now: NOW }),
          `position ${i} → ${replacement}`,
        ).rejects.toBeInstanceOf(StipendexError);
      }
    }
  });

  it("accepts mcp resources and checks them against the call made", async () => {
    const receiver = await makeReceiver();
    const argsHash = "RBNvo1WzZ4oRRq0W9-hknpT7T8If536DEMBg9hyq_4o"; // sha256 of {} below
    const resource = { mcp: { server: `${ORIGIN}/mcp`, tool: "web_search", argsHash } };
    const jws = await signQuote(quoteInput({ resource }), receiver.key);
    const options = { descriptor: receiver.descriptor, now: NOW };
    await expect(
      verifyQuote(jws, {
        ...options,
        request: { kind: "mcp", server: `${ORIGIN}/mcp`, tool: "web_search" },
      }),
    ).resolves.toBeTruthy();
    await expect(
      verifyQuote(jws, {
        ...options,
        request: { kind: "mcp", server: `${ORIGIN}/mcp`, tool: "other" },
      }),
    ).rejects.toThrow(refused("resource-mismatch"));
  });

  it("refuses expired, future, and out-of-range lifetimes", async () => {
    const receiver = await makeReceiver();
    const options = { descriptor: receiver.descriptor };
    const jws = await signQuote(quoteInput(), receiver.key);
    await expect(verifyQuote(jws, { ...options, now: new Date((T + 126) * 1000) })).rejects.toThrow(
      refused("expired"),
    );
    await expect(verifyQuote(jws, { ...options, now: new Date((T - 6) * 1000) })).rejects.toThrow(
      refused("not-yet-valid"),
    );
    await expect(
      verifyQuote(jws, { ...options, now: new Date((T - 4) * 1000) }),
    ).resolves.toBeTruthy();
    await expect(signQuote(quoteInput({ exp: T + 29 }), receiver.key)).rejects.toThrow(
      refused("lifetime-out-of-range"),
    );
    const long = await signEnvelope(
      "quote",
      { ...quoteInput(), exp: T + 601 },
      receiver.key,
      receiver.key.key,
    );
    await expect(verifyQuote(long, { ...options, now: NOW })).rejects.toThrow(
      refused("lifetime-out-of-range"),
    );
  });

  it("refuses a key, issuer, rail or total the descriptor does not back", async () => {
    const receiver = await makeReceiver();
    const impostor = await makeReceiver(ORIGIN, "r1");
    const other = await makeReceiver(ORIGIN, "r9");
    const options = { descriptor: receiver.descriptor, now: NOW };
    const sign = (claims: Record<string, unknown>, key = receiver.key) =>
      signEnvelope("quote", { ...quoteInput(), ...claims }, key, key.key);
    await expect(verifyQuote(await sign({}, impostor.key), options)).rejects.toThrow(
      refused("bad-signature"),
    );
    await expect(verifyQuote(await sign({}, other.key), options)).rejects.toThrow(
      refused("key-not-in-descriptor"),
    );
    await expect(verifyQuote(await sign({ iss: "https://evil.example" }), options)).rejects.toThrow(
      refused("issuer-mismatch"),
    );
    const unlisted = { ...RAIL, payTo: "0x000000000000000000000000000000000000dEaD" };
    await expect(verifyQuote(await sign({ rails: [unlisted] }), options)).rejects.toThrow(
      refused("rail-not-in-descriptor"),
    );
    const lowerCase = {
      ...RAIL,
      payTo: RAIL.payTo.toLowerCase(),
      asset: RAIL.asset.toUpperCase().replace("0X", "0x"),
    };
    await expect(verifyQuote(await sign({ rails: [lowerCase] }), options)).resolves.toBeTruthy();
    await expect(
      verifyQuote(await sign({ total: { amount: "5000", currency: "USD" } }), options),
    ).rejects.toThrow(refused("total-mismatch"));
  });

  it("verifies a Quote that also offers a rail on another chain, which must be listed and match the total", async () => {
    const receiver = await makeReceiver();
    const descriptor = alsoListing(receiver.descriptor, SOLANA_RAIL);
    const verify = async (rails: unknown[], options = { descriptor, now: NOW }) =>
      verifyQuote(
        await signEnvelope("quote", { ...quoteInput(), rails }, receiver.key, receiver.key.key),
        options,
      );
    expect((await verify([RAIL, SOLANA_RAIL])).claims.rails).toEqual([RAIL, SOLANA_RAIL]);
    await expect(
      verify([RAIL, SOLANA_RAIL], { descriptor: receiver.descriptor, now: NOW }),
    ).rejects.toThrow(refused("rail-not-in-descriptor"));
    // §7 holds for every stablecoin rail of the Quote, paid or not: it states one price.
    await expect(verify([RAIL, { ...SOLANA_RAIL, amount: "50000" }])).rejects.toThrow(
      refused("total-mismatch"),
    );
  });

  it("reads what JWT and the envelope allow: fractional times, unknown members of resource", async () => {
    const receiver = await makeReceiver();
    const options = { descriptor: receiver.descriptor, now: NOW };
    const sign = (claims: Record<string, unknown>) =>
      signEnvelope("quote", claims, receiver.key, receiver.key.key);
    const fractional = await verifyQuote(
      await sign({ ...quoteInput(), iat: T + 0.25, exp: T + 120.75 }),
      options,
    );
    expect(fractional.claims).toMatchObject({ iat: T, exp: T + 120 });
    const http = { method: "GET", url: `${ORIGIN}/search?q=x` };
    await expect(
      verifyQuote(await sign({ ...quoteInput(), resource: { http, note: "v2" } }), options),
    ).resolves.toBeTruthy();
    const both = { http, mcp: { server: `${ORIGIN}/mcp`, tool: "t", argsHash: "A".repeat(43) } };
    await expect(
      verifyQuote(await sign({ ...quoteInput(), resource: both }), options),
    ).rejects.toThrow(refused("invalid-claims"));
  });

  it("refuses a wrong typ, a missing kid and a claim of the wrong type", async () => {
    const receiver = await makeReceiver();
    const options = { descriptor: receiver.descriptor, now: NOW };
    const proofTyped = await signEnvelope("proof", quoteInput(), receiver.key, receiver.key.key);
    await expect(verifyQuote(proofTyped, options)).rejects.toThrow(refused("wrong-typ"));
    const noKid = await signEnvelope(
      "quote",
      quoteInput(),
      { alg: "EdDSA", kid: "" },
      receiver.key.key,
    );
    await expect(verifyQuote(noKid, options)).rejects.toThrow(refused("key-not-in-descriptor"));
    const numeric = await signEnvelope(
      "quote",
      { ...quoteInput(), description: 5 },
      receiver.key,
      receiver.key.key,
    );
    await expect(verifyQuote(numeric, options)).rejects.toThrow(refused("invalid-claims"));
    await expect(verifyQuote(numeric, options)).rejects.toThrow('"description"');
    await expect(verifyQuote("a.b", options)).rejects.toThrow(refused("malformed-jws"));
  });
});
