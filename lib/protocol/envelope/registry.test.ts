import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  makeReceiver,
  NOW,
  ORIGIN,
  T,
} from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import type { ProtocolErrorCode } from "../errors";
import { signRegistryDescriptor, verifyRegistryDescriptor } from "./registry";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

async function registry(kid: string) {
  const pair = await generateKeyPair("ES256", { extractable: true });
  return {
    key: { kid, alg: "ES256", key: pair.privateKey },
    publicJwk: { ...(await exportJWK(pair.publicKey)), kid },
  };
}

describe("registry-signed descriptors", () => {
  it("verify under a trusted registry key and check the descriptor", async () => {
    const { descriptor } = await makeReceiver();
    const trusted = await registry("reg-1");
    const jws = await signRegistryDescriptor(descriptor, trusted.key, T);
    const options = { trustedKeys: [trusted.publicJwk], fetchedFromOrigin: ORIGIN, now: NOW };
    await expect(verifyRegistryDescriptor(jws, options)).resolves.toMatchObject({
      id: ORIGIN,
      iat: T,
    });
    await expect(
      verifyRegistryDescriptor(jws, { ...options, fetchedFromOrigin: "https://evil.example" }),
    ).rejects.toThrow(refused("descriptor-id-mismatch"));
  });

  it("refuse an untrusted registry and a forged signature", async () => {
    const { descriptor } = await makeReceiver();
    const trusted = await registry("reg-1");
    const forger = await registry("reg-1");
    const stranger = await registry("reg-2");
    const options = { trustedKeys: [trusted.publicJwk], fetchedFromOrigin: ORIGIN, now: NOW };
    await expect(
      verifyRegistryDescriptor(await signRegistryDescriptor(descriptor, stranger.key, T), options),
    ).rejects.toThrow(refused("untrusted-registry-key"));
    await expect(
      verifyRegistryDescriptor(await signRegistryDescriptor(descriptor, forger.key, T), options),
    ).rejects.toThrow(refused("bad-signature"));
  });

  // §4 asks the wrapping JWS for its typ only; the person pastes one JWK per registry.
  it("verify without an iat, and under the trusted key when the JWS or the key names no kid", async () => {
    const { descriptor } = await makeReceiver();
    const trusted = await registry("reg-1");
    const { kid: _kid, ...withoutKid } = trusted.publicJwk;
    const options = { fetchedFromOrigin: ORIGIN, now: NOW };
    const sign = (header: { alg: string; kid?: string }) =>
      new SignJWT({ ...descriptor })
        .setProtectedHeader({ ...header, typ: "stipendex-descriptor+jwt" })
        .sign(trusted.key.key);
    const noIat = await sign({ alg: "ES256", kid: "reg-1" });
    const noKid = await sign({ alg: "ES256" });
    for (const [jws, key] of [
      [noIat, trusted.publicJwk],
      [noKid, trusted.publicJwk],
      [noIat, withoutKid],
      [noKid, withoutKid],
    ] as const) {
      await expect(
        verifyRegistryDescriptor(jws, { ...options, trustedKeys: [key] }),
      ).resolves.toMatchObject({ id: ORIGIN });
    }
    const other = await registry("reg-2");
    await expect(
      verifyRegistryDescriptor(noKid, { ...options, trustedKeys: [other.publicJwk] }),
    ).rejects.toThrow(refused("bad-signature"));
  });
});
