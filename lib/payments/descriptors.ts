import { checkDescriptor, type Descriptor } from "../protocol/envelope/descriptor";
import { isLoopbackHost } from "../protocol/loopback-host";
import { addressSpaceOf, addressSpaceOfOrigin, mayReach } from "./address-space";
import { readCapped } from "./capped-body";
import { PaymentError } from "./errors";

/** A day at most (envelope §7), less when HTTP caching says so. */
const MAX_CACHE_MS = 24 * 60 * 60 * 1000;

export interface DescriptorLimits {
  /** Largest descriptor read; reading stops past it. */
  bytes: number;
  /** For the whole fetch, body included. */
  timeoutMs: number;
  /** Receivers whose descriptor is kept; the least recently used goes first. */
  cacheEntries: number;
}

export const DESCRIPTOR_LIMITS: DescriptorLimits = {
  bytes: 64 * 1024,
  timeoutMs: 5_000,
  cacheEntries: 256,
};

export interface DescriptorOptions {
  /** Skip the cache once (a key rotated). */
  refresh?: boolean;
  /** The page asking: a public page may not make the wallet ask a private network. */
  requesterOrigin?: string;
}

export interface DescriptorSource {
  /** The checked descriptor of a receiver id (an origin). */
  get(receiverId: string, options?: DescriptorOptions): Promise<Descriptor>;
}

/**
 * Fetches `/.well-known/stipendex.json` from the receiver's own origin (from
 * the background, never trusting the page), checks it, and caches it. Every
 * failure, refusals before any fetch included, is the same
 * "descriptor-unavailable" to the caller.
 */
export function createDescriptorSource(
  fetchImpl: typeof fetch,
  now: () => number = Date.now,
  limits: DescriptorLimits = DESCRIPTOR_LIMITS,
): DescriptorSource {
  const cache = new Map<string, { descriptor: Descriptor; until: number }>();
  return {
    async get(receiverId, options = {}) {
      const origin = fetchableOrigin(receiverId, options.requesterOrigin);
      const cached = cache.get(origin);
      if (cached && !options.refresh && cached.until > now()) {
        // Re-inserted: the Map's order is least recently used first.
        cache.delete(origin);
        cache.set(origin, cached);
        return cached.descriptor;
      }
      let fetched: { descriptor: Descriptor; lifetime: number };
      try {
        fetched = await fetchDescriptor(fetchImpl, origin, limits, now, options.refresh === true);
      } catch (cause) {
        throw unavailable(origin, cause);
      }
      cache.delete(origin);
      cache.set(origin, { descriptor: fetched.descriptor, until: now() + fetched.lifetime });
      for (const oldest of cache.keys()) {
        if (cache.size <= limits.cacheEntries) break;
        cache.delete(oldest);
      }
      return fetched.descriptor;
    },
  };
}

/** The one answer for any descriptor failure; `cause` says what happened, for the wallet only. */
function unavailable(receiver: string, cause: unknown): PaymentError {
  return new PaymentError(
    "descriptor-unavailable",
    `The receiver's descriptor at ${receiver} could not be used`,
    { cause },
  );
}

/** The receiver's origin, if the wallet may fetch from it for this requester. */
function fetchableOrigin(receiverId: string, requesterOrigin: string | undefined): string {
  let url: URL;
  try {
    url = new URL(receiverId);
  } catch (cause) {
    throw unavailable(JSON.stringify(receiverId.slice(0, 100)), cause);
  }
  const refuse = (detail: string) =>
    unavailable(url.origin, new PaymentError("descriptor-fetch", detail));
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    throw refuse(`${url.origin} is neither https nor plain http on loopback`);
  }
  if (requesterOrigin === undefined) return url.origin;
  const from = addressSpaceOfOrigin(requesterOrigin);
  const to = addressSpaceOf(url.hostname);
  if (!mayReach(from, to)) {
    throw refuse(`a ${from} page (${requesterOrigin}) may not reach ${to} ${url.origin}`);
  }
  return url.origin;
}

async function fetchDescriptor(
  fetchImpl: typeof fetch,
  origin: string,
  limits: DescriptorLimits,
  now: () => number,
  refresh: boolean,
): Promise<{ descriptor: Descriptor; lifetime: number }> {
  const url = `${origin}/.well-known/stipendex.json`;
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const response = await fetchImpl(url, {
    credentials: "omit",
    redirect: "error",
    // A key rotated: the browser's HTTP cache would hand back the copy that lacks it (§7).
    ...(refresh ? { cache: "no-cache" as const } : {}),
    signal,
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new PaymentError("descriptor-fetch", `${url} answered ${response.status}`);
  }
  const text = await readCapped(response, limits.bytes, signal);
  const descriptor = checkDescriptor(JSON.parse(text), origin);
  return { descriptor, lifetime: cacheLifetime(response.headers, now()) };
}

/**
 * How long a descriptor may be kept, as a private cache reads it (RFC 9111 §4.2):
 * nothing with no-store or no-cache; max-age, which wins over Expires; else Expires
 * counted from the response's Date (from `receivedAt` without one), an Expires that is
 * no date having passed already (§5.3); less the Age a cache on the way held it for
 * (§4.2.3). Never more than a day.
 */
function cacheLifetime(headers: Headers, receivedAt: number): number {
  const control = headers.get("cache-control") ?? "";
  if (/no-store|no-cache/.test(control)) return 0;
  const age = Number(/^\d+$/.exec(headers.get("age")?.trim() ?? "")?.[0] ?? 0) * 1000;
  return Math.min(Math.max(freshnessLifetime(headers, control, receivedAt) - age, 0), MAX_CACHE_MS);
}

/** RFC 9111 §4.2.1: max-age, else Expires less Date; a day when neither says. */
function freshnessLifetime(headers: Headers, control: string, receivedAt: number): number {
  const maxAge = /max-age=(\d+)/.exec(control)?.[1];
  if (maxAge !== undefined) return Number(maxAge) * 1000;
  const expires = headers.get("expires");
  if (expires === null) return MAX_CACHE_MS;
  const expiresAt = httpDate(expires);
  if (expiresAt === undefined) return 0;
  const servedAt = httpDate(headers.get("date") ?? "") ?? receivedAt;
  return expiresAt - servedAt;
}

/** RFC 9110 §5.6.7: IMF-fixdate, or the obsolete RFC 850 and asctime forms; all in GMT. */
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC850_DATE = /^[A-Z][a-z]{5,8}, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME_DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/**
 * An HTTP-date in ms, or undefined for anything else: Date.parse alone would read "0" as
 * the year 2000 and "2030" as a date to come.
 */
function httpDate(text: string): number | undefined {
  if (![IMF_FIXDATE, RFC850_DATE, ASCTIME_DATE].some((form) => form.test(text))) return undefined;
  // asctime names no zone, and Date.parse would read it as local time.
  const ms = Date.parse(ASCTIME_DATE.test(text) ? `${text} GMT` : text);
  return Number.isNaN(ms) ? undefined : ms;
}
