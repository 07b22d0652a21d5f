import type { JWK } from "jose";
import type { PolicyView } from "../messages";
import type { Descriptor } from "../protocol/envelope/descriptor";
import { verifyRegistryDescriptor } from "../protocol/envelope/registry";

export type TrustedRegistry = PolicyView["trustedRegistries"][number];

const MAX_ENTRY_BYTES = 64 * 1024;

/**
 * The name of a registry the person trusts that lists this receiver, or
 * undefined. The receiver's descriptor names its registry entry; the entry
 * must sit under a trusted registry's URL, verify under that registry's key
 * (typ `stipendex-descriptor+jwt`), describe the same receiver id, and list
 * the very keys the receiver serves. Any failure means "not listed", never an
 * error: a receiver is then shown as verified by its descriptor only.
 */
export async function registryListing(
  descriptor: Descriptor,
  trusted: readonly TrustedRegistry[],
  fetchImpl: typeof fetch,
  now: Date,
): Promise<string | undefined> {
  const entryUrl = descriptor.registry;
  if (typeof entryUrl !== "string") return undefined;
  const registry = trusted.find((r) => r.url !== "" && entryUrl.startsWith(r.url));
  if (!registry) return undefined;
  try {
    const response = await fetchImpl(entryUrl, { credentials: "omit", redirect: "error" });
    if (!response.ok) return undefined;
    const jws = (await response.text()).trim();
    if (jws.length > MAX_ENTRY_BYTES) return undefined;
    const listed = await verifyRegistryDescriptor(jws, {
      trustedKeys: [registry.jwk as JWK],
      fetchedFromOrigin: descriptor.id,
      now,
    });
    const served = new Set(descriptor.keys.keys.map(keyIdentity));
    const same = listed.keys.keys.every((key) => served.has(keyIdentity(key)));
    return same && listed.keys.keys.length === served.size ? registry.name : undefined;
  } catch {
    return undefined;
  }
}

function keyIdentity(key: JWK): string {
  return [key.kid, key.kty, key.crv, key.x, key.y, key.n, key.e].join("|");
}
