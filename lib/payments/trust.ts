import type { JWK } from "jose";
import type { PolicyView } from "../messages";
import type { Descriptor } from "../protocol/envelope/descriptor";
import { verifyRegistryDescriptor } from "../protocol/envelope/registry";
import { readCapped } from "./capped-body";

export type TrustedRegistry = PolicyView["trustedRegistries"][number];

const MAX_ENTRY_BYTES = 64 * 1024;
/** For the whole fetch of an entry, body included: the window waits for it. */
const ENTRY_TIMEOUT_MS = 5_000;

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
  const registry = trusted.find((r) => isUnder(entryUrl, r.url));
  if (!registry) return undefined;
  try {
    const signal = AbortSignal.timeout(ENTRY_TIMEOUT_MS);
    const response = await fetchImpl(entryUrl, { credentials: "omit", redirect: "error", signal });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const jws = (await readCapped(response, MAX_ENTRY_BYTES, signal)).trim();
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

/**
 * Whether `entryUrl` is the registry's URL or a path below it, on its origin: a registry
 * given as "https://reg.example" does not cover "https://reg.example.evil.com/…", nor
 * "https://reg.example/entries" cover "https://reg.example/entries-forged/…".
 */
function isUnder(entryUrl: string, registryUrl: string): boolean {
  let entry: URL;
  let registry: URL;
  try {
    entry = new URL(entryUrl);
    registry = new URL(registryUrl);
  } catch {
    return false;
  }
  if (entry.origin !== registry.origin) return false;
  const base = registry.pathname.endsWith("/") ? registry.pathname : `${registry.pathname}/`;
  return entry.pathname === registry.pathname || entry.pathname.startsWith(base);
}

function keyIdentity(key: JWK): string {
  return [key.kid, key.kty, key.crv, key.x, key.y, key.n, key.e].join("|");
}
