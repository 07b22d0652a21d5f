import { calculateJwkThumbprint, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import type { ProtocolErrorCode } from "../errors";
import { walletIdentity, walletSigner } from "./wallet-key";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

describe("walletSigner / walletIdentity", () => {
  it.each([
    ["EdDSA", { kty: "OKP", crv: "Ed25519" }],
    ["ES256", { kty: "EC", crv: "P-256" }],
  ] as const)("derives %s ids from the public key", async (alg, shape) => {
    const signer = await walletSigner(await generateKeyPair(alg, { extractable: false }));
    expect(signer.alg).toBe(alg);
    expect(signer.publicJwk).toMatchObject(shape);
    expect(signer.publicJwk).not.toHaveProperty("d");
    expect(signer.kid).toBe(await calculateJwkThumbprint(signer.publicJwk));
    expect(signer.id).toBe(`urn:ietf:params:oauth:jwk-thumbprint:sha-256:${signer.kid}`);
    expect(await walletIdentity(signer.publicJwk)).toEqual({ kid: signer.kid, id: signer.id });
  });

  it("refuses other key types and unusable JWKs", async () => {
    await expect(walletSigner(await generateKeyPair("ES384"))).rejects.toThrow(
      refused("unsupported-algorithm"),
    );
    await expect(walletIdentity({ kty: "OKP" })).rejects.toThrow(refused("malformed-jws"));
  });
});
