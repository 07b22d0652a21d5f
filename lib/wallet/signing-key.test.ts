import { CompactSign, compactVerify, importJWK } from "jose";
import { describe, expect, it } from "vitest";
import { generateSigningJwk, loadSigningKey } from "./signing-key";

/** An engine without Ed25519, as in browsers that predate it: the algorithm is rejected. */
function subtleWithoutEd25519(): SubtleCrypto {
  const real = globalThis.crypto.subtle;
  return new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop !== "generateKey" || typeof value !== "function") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (algorithm: AlgorithmIdentifier, ...rest: unknown[]) => {
        const name = typeof algorithm === "string" ? algorithm : algorithm.name;
        if (name === "Ed25519") {
          return Promise.reject(new DOMException("Unrecognized name.", "NotSupportedError"));
        }
        return Reflect.apply(value, target, [algorithm, ...rest]);
      };
    },
  });
}

async function signAndVerify(jwkAlg: "EdDSA" | "ES256") {
  const jwk = await generateSigningJwk(
    jwkAlg === "EdDSA" ? globalThis.crypto.subtle : subtleWithoutEd25519(),
  );
  const key = await loadSigningKey(jwk);
  const jws = await new CompactSign(new TextEncoder().encode("hello"))
    .setProtectedHeader({ alg: key.alg, kid: key.thumbprint, jwk: key.publicJwk })
    .sign(key.privateKey);
  const verified = await compactVerify(jws, await importJWK(key.publicJwk, key.alg));
  return { jwk, key, payload: new TextDecoder().decode(verified.payload) };
}

describe("generateSigningJwk + loadSigningKey", () => {
  it("makes an Ed25519 key that signs EdDSA JWS verifiable under its public JWK", async () => {
    const { jwk, key, payload } = await signAndVerify("EdDSA");
    expect(jwk.kty).toBe("OKP");
    expect(key.alg).toBe("EdDSA");
    expect(payload).toBe("hello");
    expect(key.publicJwk).not.toHaveProperty("d");
    expect(key.publicJwk.kid).toBe(key.thumbprint);
    expect(key.walletId).toBe(`urn:ietf:params:oauth:jwk-thumbprint:sha-256:${key.thumbprint}`);
    expect(key.thumbprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("falls back to P-256 ES256 when the engine lacks Ed25519", async () => {
    const { jwk, key, payload } = await signAndVerify("ES256");
    expect(jwk).toMatchObject({ kty: "EC", crv: "P-256" });
    expect(key.alg).toBe("ES256");
    expect(payload).toBe("hello");
    expect(Object.keys(key.publicJwk).sort()).toEqual(["alg", "crv", "kid", "kty", "x", "y"]);
  });

  it("keeps the unlocked private key non-extractable", async () => {
    const key = await loadSigningKey(await generateSigningJwk());
    expect(key.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey("jwk", key.privateKey)).rejects.toThrow();
  });

  it("gives the same wallet id for the same key", async () => {
    const jwk = await generateSigningJwk();
    expect((await loadSigningKey(jwk)).walletId).toBe((await loadSigningKey(jwk)).walletId);
  });

  it("reports a key that does not import as a corrupt vault", async () => {
    const jwk = await generateSigningJwk();
    await expect(loadSigningKey({ ...jwk, x: "AAAA", d: "AAAA" })).rejects.toMatchObject({
      name: "WalletError",
      code: "vault-corrupt",
    });
  });
});
