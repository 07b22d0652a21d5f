import { exportJWK, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { makeReceiver, NOW, T } from "../../tests/unit-support/protocol/envelope/test-fixtures";
import { signRegistryDescriptor } from "../protocol/envelope/registry";
import { registryListing } from "./trust";

const ENTRY = "https://registry.example/entries/api.example.com";

async function registryKey(kid: string) {
  const pair = await generateKeyPair("ES256", { extractable: true });
  return {
    key: { kid, alg: "ES256", key: pair.privateKey },
    publicJwk: { ...(await exportJWK(pair.publicKey)), kid },
  };
}

/** The network boundary: the registry serves one entry. */
function serving(body: string, status = 200): typeof fetch {
  return async (input) =>
    String(input) === ENTRY ? new Response(body, { status }) : new Response("", { status: 404 });
}

describe("registryListing", () => {
  it("names a trusted registry whose signed entry lists the receiver and its keys", async () => {
    const { descriptor } = await makeReceiver();
    const listed = { ...descriptor, registry: ENTRY };
    const registry = await registryKey("reg-1");
    const entry = await signRegistryDescriptor(descriptor, registry.key, T);
    const trusted = [
      { name: "Example Registry", url: "https://registry.example/", jwk: registry.publicJwk },
    ];
    expect(await registryListing(listed, trusted, serving(entry), NOW)).toBe("Example Registry");
  });

  it("takes a registry's URL as a folder on its origin, written with or without its slash", async () => {
    const registry = await registryKey("reg-1");
    for (const [entryUrl, registryUrl, listed] of [
      ["https://registry.example/entries/a", "https://registry.example", true],
      ["https://registry.example/entries/a", "https://registry.example/entries", true],
      ["https://registry.example.evil.com/entries/a", "https://registry.example", false],
      ["https://registry.example/entries-forged/a", "https://registry.example/entries", false],
      ["http://registry.example/entries/a", "https://registry.example/", false],
    ] as const) {
      const { descriptor } = await makeReceiver();
      const entry = await signRegistryDescriptor(descriptor, registry.key, T);
      const trusted = [{ name: "R", url: registryUrl, jwk: registry.publicJwk }];
      const served: typeof fetch = async (input) =>
        String(input) === entryUrl ? new Response(entry) : new Response("", { status: 404 });
      expect(
        await registryListing({ ...descriptor, registry: entryUrl }, trusted, served, NOW),
        `${entryUrl} under ${registryUrl}`,
      ).toBe(listed ? "R" : undefined);
    }
  });

  it("stops reading an entry past 64 KiB", async () => {
    const { descriptor } = await makeReceiver();
    const registry = await registryKey("reg-1");
    const trusted = [{ name: "R", url: "https://registry.example/", jwk: registry.publicJwk }];
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(16 * 1024).fill(65));
      },
    });
    const served: typeof fetch = async () => new Response(endless);
    expect(
      await registryListing({ ...descriptor, registry: ENTRY }, trusted, served, NOW),
    ).toBeUndefined();
    expect(pulled).toBeLessThan(10);
  });

  it("is undefined for an untrusted registry, a forged entry, other keys, or a failed fetch", async () => {
    const { descriptor } = await makeReceiver();
    const listed = { ...descriptor, registry: ENTRY };
    const registry = await registryKey("reg-1");
    const forger = await registryKey("reg-1");
    const trustedEntry = { name: "R", url: "https://registry.example/", jwk: registry.publicJwk };
    const trusted = [trustedEntry];
    const entry = await signRegistryDescriptor(descriptor, registry.key, T);

    expect(await registryListing(listed, [], serving(entry), NOW)).toBeUndefined();
    expect(
      await registryListing(
        listed,
        [{ ...trustedEntry, url: "https://other.example/" }],
        serving(entry),
        NOW,
      ),
    ).toBeUndefined();
    const forged = await signRegistryDescriptor(descriptor, forger.key, T);
    expect(await registryListing(listed, trusted, serving(forged), NOW)).toBeUndefined();
    const { descriptor: impostor } = await makeReceiver();
    const otherKeys = await signRegistryDescriptor(impostor, registry.key, T);
    expect(await registryListing(listed, trusted, serving(otherKeys), NOW)).toBeUndefined();
    expect(await registryListing(listed, trusted, serving(entry, 500), NOW)).toBeUndefined();
    expect(await registryListing(descriptor, trusted, serving(entry), NOW)).toBeUndefined();
  });
});
