import { checkDescriptor, type Descriptor } from "../protocol/envelope/descriptor";
import { DescriptorUnavailableError } from "./errors";

/** A day at most (envelope §7), less when HTTP caching says so. */
const MAX_CACHE_MS = 24 * 60 * 60 * 1000;
const MAX_DESCRIPTOR_BYTES = 64 * 1024;

export interface DescriptorSource {
  /** The checked descriptor of a receiver id (an origin); `refresh` skips the cache once. */
  get(receiverId: string, options?: { refresh?: boolean }): Promise<Descriptor>;
}

/**
 * Fetches `/.well-known/stipendex.json` from the receiver's own origin (from
 * the background, never trusting the page), checks it, and caches it.
 */
export function createDescriptorSource(
  fetchImpl: typeof fetch,
  now: () => number = Date.now,
): DescriptorSource {
  const cache = new Map<string, { descriptor: Descriptor; until: number }>();
  return {
    async get(receiverId, options = {}) {
      const cached = cache.get(receiverId);
      if (cached && !options.refresh && cached.until > now()) return cached.descriptor;
      let origin: string;
      try {
        origin = new URL(receiverId).origin;
      } catch (cause) {
        throw new DescriptorUnavailableError(receiverId, "the receiver id is not a URL", { cause });
      }
      const url = `${origin}/.well-known/stipendex.json`;
      let response: Response;
      try {
        response = await fetchImpl(url, { credentials: "omit", redirect: "error" });
      } catch (cause) {
        throw new DescriptorUnavailableError(receiverId, `fetching ${url} failed`, { cause });
      }
      if (!response.ok) {
        throw new DescriptorUnavailableError(receiverId, `${url} answered ${response.status}`);
      }
      const text = await response.text();
      if (text.length > MAX_DESCRIPTOR_BYTES) {
        throw new DescriptorUnavailableError(receiverId, `${url} is larger than 64 KiB`);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        throw new DescriptorUnavailableError(receiverId, `${url} is not JSON`, { cause });
      }
      const descriptor = checkDescriptor(json, origin);
      cache.set(receiverId, { descriptor, until: now() + cacheLifetime(response) });
      return descriptor;
    },
  };
}

function cacheLifetime(response: Response): number {
  const control = response.headers.get("cache-control") ?? "";
  if (/no-store|no-cache/.test(control)) return 0;
  const maxAge = /max-age=(\d+)/.exec(control)?.[1];
  return maxAge === undefined ? MAX_CACHE_MS : Math.min(Number(maxAge) * 1000, MAX_CACHE_MS);
}
