import { exportJWK, generateKeyPair } from "jose";
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
});
