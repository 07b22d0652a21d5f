import { describe, expect, it } from "vitest";
import {
  confirmationInput,
  makeReceiver,
  makeWallet,
  NOW,
  ORIGIN,
  proofInput,
  quoteInput,
  RAIL,
  T,
} from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import { StipendexError } from "../../errors";
import type { ProtocolErrorCode } from "../errors";
import { signConfirmation } from "./confirmation";
import { signEnvelope } from "./envelope-jwt";
import { objectHash } from "./object-hash";
import { assertPaymentMatchesRail, signProof, verifyProof } from "./proof";
import { signQuote, verifyQuote } from "./quote";
import { MemoryQuoteReplayGuard } from "./replay-guard";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

const FROM = "0x1111111111111111111111111111111111111111";

async function setup(alg: "EdDSA" | "ES256", profile?: "L2") {
  const receiver = await makeReceiver();
  const wallet = await makeWallet(alg);
  const quoteJws = await signQuote(quoteInput(profile ? { profile } : {}), receiver.key);
  const quote = await verifyQuote(quoteJws, { descriptor: receiver.descriptor, now: NOW });
  const confirmation = await signConfirmation(confirmationInput(quote), wallet);
  const ch = await objectHash(confirmation);
  return {
    receiver,
    wallet,
    quote,
    confirmation,
    ch,
    options: { quote, receiverId: ORIGIN, now: NOW },
  };
}

describe.each(["EdDSA", "ES256"] as const)("Proof signed with %s", (alg) => {
  it("round-trips with an embedded L2 Confirmation", async () => {
    const { wallet, confirmation, ch, options } = await setup(alg, "L2");
    const jws = await signProof({ ...proofInput(options.quote, ch, FROM), confirmation }, wallet);
    const proof = await verifyProof(jws, options);
    expect(proof.walletId).toBe(wallet.id);
    expect(proof.walletId).toBe(`urn:ietf:params:oauth:jwk-thumbprint:sha-256:${wallet.kid}`);
    expect(proof.header).toMatchObject({
      alg,
      kid: wallet.kid,
      typ: "stipendex-proof+jwt",
      jwk: wallet.publicJwk,
    });
    expect(proof.claims.rail).toEqual(RAIL);
    expect(proof.confirmation?.hash).toBe(ch);
  });

  it("fails when any character of the token is changed", async () => {
    const { wallet, ch, options } = await setup(alg);
    const jws = await signProof(proofInput(options.quote, ch, FROM), wallet);
    for (let i = 0; i < jws.length; i++) {
      const tampered =
        jws.slice(0, i) + String.fromCharCode(jws.charCodeAt(i) ^ 1 || 65) + jws.slice(i + 1);
      const rotated = jws.slice(0, i) + (jws[i] === "A" ? "B" : "A") + jws.slice(i + 1);
      await expect(verifyProof(tampered, options), `xor at ${i}`).rejects.toBeInstanceOf(
        StipendexError,
      );
      await expect(verifyProof(rotated, options), `rotate at ${i}`).rejects.toBeInstanceOf(
        StipendexError,
      );
    }
  });
});

describe("Proof refusals", () => {
  it("refuses a rail not copied verbatim and a payment that does not pay it", async () => {
    const { wallet, ch, options } = await setup("EdDSA");
    const base = proofInput(options.quote, ch, FROM);
    const changedRail = { ...base.rail, maxTimeoutSeconds: 61 };
    await expect(
      verifyProof(await signProof({ ...base, rail: changedRail }, wallet), options),
    ).rejects.toThrow(refused("proof-rail-mismatch"));
    const auth = base.payment.authorization;
    const wrongValue = {
      ...base,
      payment: { ...base.payment, authorization: { ...auth, value: "4999" } },
    };
    await expect(signProof(wrongValue, wallet)).rejects.toThrow(refused("payment-rail-mismatch"));
    const wrongTo = { ...base, payment: { ...base.payment, authorization: { ...auth, to: FROM } } };
    await expect(signProof(wrongTo, wallet)).rejects.toThrow(refused("payment-rail-mismatch"));
    const raw = await signEnvelope(
      "proof",
      { ...wrongValue, iss: wallet.id },
      { alg: wallet.alg, kid: wallet.kid, jwk: wallet.publicJwk },
      wallet.privateKey,
    );
    await expect(verifyProof(raw, options)).rejects.toThrow(refused("payment-rail-mismatch"));
  });

  it("checks the authorization window and the Proof exp against validBefore", async () => {
    const { wallet, ch, options } = await setup("EdDSA");
    const base = proofInput(options.quote, ch, FROM);
    const auth = base.payment.authorization;
    const late = { ...base, exp: T + 61 };
    await expect(signProof(late, wallet)).rejects.toThrow(refused("authorization-window"));
    const jws = await signProof(base, wallet);
    await expect(verifyProof(jws, { ...options, now: new Date((T + 55) * 1000) })).rejects.toThrow(
      refused("authorization-window"),
    );
    const future = {
      ...base,
      payment: { ...base.payment, authorization: { ...auth, validAfter: String(T + 30) } },
    };
    await expect(verifyProof(await signProof(future, wallet), options)).rejects.toThrow(
      refused("authorization-window"),
    );
  });

  it("refuses a wrong qh, a wrong aud, an expired Quote and a replay", async () => {
    const { wallet, ch, options } = await setup("ES256");
    const base = proofInput(options.quote, ch, FROM);
    await expect(
      verifyProof(await signProof({ ...base, qh: ch }, wallet), options),
    ).rejects.toThrow(refused("quote-hash-mismatch"));
    await expect(
      verifyProof(await signProof({ ...base, aud: "https://other.example" }, wallet), options),
    ).rejects.toThrow(refused("audience-mismatch"));
    await expect(
      verifyProof(await signProof(base, wallet), { ...options, receiverId: "https://x.example" }),
    ).rejects.toThrow(refused("audience-mismatch"));
    const longAuth = { ...base.payment.authorization, validBefore: String(T + 1000) };
    const slow = { ...base, exp: T + 200, payment: { ...base.payment, authorization: longAuth } };
    await expect(
      verifyProof(await signProof(slow, wallet), { ...options, now: new Date((T + 126) * 1000) }),
    ).rejects.toThrow(refused("expired"));
    const guard = new MemoryQuoteReplayGuard(() => T);
    const jws = await signProof(base, wallet);
    await expect(verifyProof(jws, { ...options, replayGuard: guard })).resolves.toBeTruthy();
    await expect(verifyProof(jws, { ...options, replayGuard: guard })).rejects.toThrow(
      refused("replayed-quote"),
    );
  });

  it("enforces L2: Confirmation present, hashed in ch, same wallet, approving", async () => {
    const { wallet, confirmation, ch, options, quote } = await setup("EdDSA", "L2");
    const base = proofInput(quote, ch, FROM);
    await expect(verifyProof(await signProof(base, wallet), options)).rejects.toThrow(
      refused("confirmation-required"),
    );
    await expect(
      verifyProof(await signProof({ ...base, confirmation, ch: quote.hash }, wallet), options),
    ).rejects.toThrow(refused("confirmation-hash-mismatch"));
    const otherWallet = await makeWallet("ES256");
    const foreign = await signConfirmation(confirmationInput(quote), otherWallet);
    await expect(
      verifyProof(
        await signProof({ ...base, confirmation: foreign, ch: await objectHash(foreign) }, wallet),
        options,
      ),
    ).rejects.toThrow(refused("wallet-mismatch"));
    const declined = await signConfirmation(
      { ...confirmationInput(quote), decision: "decline" },
      wallet,
    );
    await expect(
      verifyProof(
        await signProof(
          { ...base, confirmation: declined, ch: await objectHash(declined) },
          wallet,
        ),
        options,
      ),
    ).rejects.toThrow(refused("confirmation-declined"));
  });

  it("refuses a header key that is not the kid/iss, a missing jwk and a foreign alg", async () => {
    const { wallet, ch, options } = await setup("EdDSA");
    const other = await makeWallet("EdDSA");
    const claims = { ...proofInput(options.quote, ch, FROM), iss: wallet.id };
    const header = { alg: wallet.alg, kid: wallet.kid, jwk: wallet.publicJwk };
    const wrongKid = await signEnvelope(
      "proof",
      claims,
      { ...header, kid: other.kid },
      wallet.privateKey,
    );
    await expect(verifyProof(wrongKid, options)).rejects.toThrow(refused("kid-mismatch"));
    const wrongIss = await signEnvelope(
      "proof",
      { ...claims, iss: other.id },
      header,
      wallet.privateKey,
    );
    await expect(verifyProof(wrongIss, options)).rejects.toThrow(refused("issuer-mismatch"));
    const noJwk = await signEnvelope(
      "proof",
      claims,
      { alg: wallet.alg, kid: wallet.kid },
      wallet.privateKey,
    );
    await expect(verifyProof(noJwk, options)).rejects.toThrow(refused("malformed-jws"));
    const ed25519Alg = await signEnvelope(
      "proof",
      claims,
      { ...header, alg: "Ed25519" },
      wallet.privateKey,
    );
    await expect(verifyProof(ed25519Alg, options)).rejects.toThrow(
      refused("unsupported-algorithm"),
    );
  });

  it("assertPaymentMatchesRail accepts a checksum-cased payTo written in lower case", () => {
    const claims = {
      ...proofInput({ claims: { iss: ORIGIN, rails: [RAIL] }, hash: "h" } as never, "c", FROM),
      stipendex: "proof/0.1" as const,
      iss: "w",
    };
    const lower = { ...claims.payment.authorization, to: RAIL.payTo.toLowerCase() };
    expect(() =>
      assertPaymentMatchesRail({ ...claims, payment: { ...claims.payment, authorization: lower } }),
    ).not.toThrow();
  });
});
