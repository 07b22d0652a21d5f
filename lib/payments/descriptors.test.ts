import { describe, expect, it } from "vitest";
import { makeReceiver, ORIGIN } from "../../tests/unit-support/protocol/envelope/test-fixtures";
import type { ProtocolErrorCode } from "../protocol/errors";
import { createDescriptorSource, DESCRIPTOR_LIMITS, type DescriptorLimits } from "./descriptors";

const URL_OF = `${ORIGIN}/.well-known/stipendex.json`;
const unusable = (origin: string) => `The receiver's descriptor at ${origin} could not be used`;

/** The network boundary: one response factory, every request recorded with its options. */
function network(
  respond: (url: string, init: RequestInit | undefined) => Response | Promise<Response>,
) {
  const requests: { url: string; init: RequestInit | undefined }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push({ url: String(input), init });
    return respond(String(input), init);
  }) as typeof fetch;
  return { fetchImpl, requests };
}

const json =
  (body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { headers });

/** Serves the same descriptor for whichever origin is asked, as that origin's. */
async function everyOrigin() {
  const { descriptor } = await makeReceiver();
  return network((url) => new Response(JSON.stringify({ ...descriptor, id: new URL(url).origin })));
}

/** A fetch that answers nothing until its signal aborts, as a stalled server does. */
const stalled = (_url: string, init: RequestInit | undefined) =>
  new Promise<Response>((_resolve, reject) => {
    init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
  });

/** What `fetch` does with `redirect: "error"` when the server redirects. */
const redirecting = (url: string, init: RequestInit | undefined) => {
  if (init?.redirect === "error") throw new TypeError("fetch failed: unexpected redirect");
  return Response.redirect(`${url}?elsewhere`, 302);
};

const quick: DescriptorLimits = { ...DESCRIPTOR_LIMITS, timeoutMs: 20 };

describe("createDescriptorSource", () => {
  it("fetches the receiver's own well-known URL without credentials or redirects, under a deadline, and caches it", async () => {
    const { descriptor } = await makeReceiver();
    const { fetchImpl, requests } = network(json(descriptor));
    const source = createDescriptorSource(fetchImpl, () => 0);
    expect(await source.get(ORIGIN)).toEqual(descriptor);
    expect(await source.get(`${ORIGIN}/any/path`)).toEqual(descriptor);
    expect(requests).toEqual([
      {
        url: URL_OF,
        init: { credentials: "omit", redirect: "error", signal: expect.any(AbortSignal) },
      },
    ]);
    await source.get(ORIGIN, { refresh: true });
    expect(requests).toHaveLength(2);
  });

  it("asks the receiver itself when a key rotated, past a copy the browser's HTTP cache holds", async () => {
    const { descriptor } = await makeReceiver();
    const { fetchImpl, requests } = network(json(descriptor, { "cache-control": "max-age=3600" }));
    const source = createDescriptorSource(fetchImpl, () => 0);
    await source.get(ORIGIN);
    await source.get(ORIGIN, { refresh: true });
    expect(requests.map(({ init }) => init?.cache)).toEqual([undefined, "no-cache"]);
  });

  it("keeps a descriptor no longer than max-age, and not at all with no-store", async () => {
    const { descriptor } = await makeReceiver();
    let ms = 0;
    const aged = network(json(descriptor, { "cache-control": "public, max-age=10" }));
    const source = createDescriptorSource(aged.fetchImpl, () => ms);
    await source.get(ORIGIN);
    ms = 9_999;
    await source.get(ORIGIN);
    expect(aged.requests).toHaveLength(1);
    ms = 10_000;
    await source.get(ORIGIN);
    expect(aged.requests).toHaveLength(2);

    const unstored = network(json(descriptor, { "cache-control": "no-store" }));
    const fresh = createDescriptorSource(unstored.fetchImpl, () => 0);
    await fresh.get(ORIGIN);
    await fresh.get(ORIGIN);
    expect(unstored.requests).toHaveLength(2);
  });

  describe("keeps a descriptor as long as its Expires says, when no max-age does", () => {
    const DAY = 24 * 60 * 60 * 1000;
    const received = Date.parse("2026-01-01T00:00:00Z");
    // The receiver's clock is an hour behind: Expires counts from its Date, not from ours.
    const served = received - 60 * 60 * 1000;
    const httpDate = (ms: number) => new Date(ms).toUTCString();
    const date = httpDate(served);

    it.each<[string, Record<string, string>, number]>([
      ["a minute after its Date", { date, expires: httpDate(served + 60_000) }, 60_000],
      ["in RFC 850 form", { date, expires: "Wednesday, 31-Dec-25 23:01:00 GMT" }, 60_000],
      ["in asctime form (GMT)", { date, expires: "Wed Dec 31 23:01:00 2025" }, 60_000],
      ["without a Date: from receipt", { expires: httpDate(received + 30_000) }, 30_000],
      [
        "with a Date that is no date: from receipt",
        { date: "yesterday", expires: httpDate(received + 30_000) },
        30_000,
      ],
      ["before its Date", { date, expires: httpDate(served - 1_000) }, 0],
      ['"0", no date: already expired', { date, expires: "0" }, 0],
      ['"2030", no date: already expired', { date, expires: "2030" }, 0],
      ["a week on: a day at most", { date, expires: httpDate(served + 7 * DAY) }, DAY],
      [
        "but max-age wins over it",
        { "cache-control": "max-age=10", date, expires: httpDate(served + 60 * 60 * 1000) },
        10_000,
      ],
      [
        "less the Age a cache on the way held it",
        { date, expires: httpDate(served + 60_000), age: "20" },
        40_000,
      ],
      ["and max-age less its Age", { "cache-control": "max-age=60", age: "45" }, 15_000],
      ["and nothing once its Age passes max-age", { "cache-control": "max-age=60", age: "90" }, 0],
      [
        "an Age that is no number counts as none",
        { "cache-control": "max-age=60", age: "1e3" },
        60_000,
      ],
    ])("Expires %s", async (_when, headers, lifetime) => {
      const { descriptor } = await makeReceiver();
      let ms = received;
      const receiver = network(json(descriptor, headers));
      const source = createDescriptorSource(receiver.fetchImpl, () => ms);
      await source.get(ORIGIN);
      if (lifetime > 0) {
        ms = received + lifetime - 1;
        await source.get(ORIGIN);
        expect(receiver.requests).toHaveLength(1);
      }
      ms = received + lifetime;
      await source.get(ORIGIN);
      expect(receiver.requests).toHaveLength(2);
    });
  });

  it("keeps at most cacheEntries descriptors, forgetting the least recently used", async () => {
    const { fetchImpl, requests } = await everyOrigin();
    const source = createDescriptorSource(fetchImpl, () => 0, {
      ...DESCRIPTOR_LIMITS,
      cacheEntries: 2,
    });
    await source.get("https://a.example");
    await source.get("https://b.example");
    await source.get("https://a.example");
    await source.get("https://c.example");
    expect(requests).toHaveLength(3);
    await source.get("https://a.example");
    expect(requests).toHaveLength(3);
    await source.get("https://b.example");
    expect(requests.map((r) => new URL(r.url).origin)).toEqual([
      "https://a.example",
      "https://b.example",
      "https://c.example",
      "https://b.example",
    ]);
  });

  it.each<[string, Parameters<typeof network>[0], RegExp | ProtocolErrorCode]>([
    ["a 404", () => new Response("", { status: 404 }), /answered 404/],
    ["non-JSON", () => new Response("<html>"), /JSON/],
    ["more than 64 KiB", () => new Response("x".repeat(64 * 1024 + 1)), /larger than 65536 bytes/],
    [
      "a declared length over 64 KiB",
      () => new Response("{}", { headers: { "content-length": String(10 * 1024 * 1024) } }),
      /larger than 65536 bytes/,
    ],
    ["a network failure", () => Promise.reject(new TypeError("network down")), /network down/],
    ["a redirect", redirecting, /redirect/],
    ["a server that never answers", stalled, /timeout|aborted/i],
    [
      "a descriptor naming another origin",
      async () => json((await makeReceiver("https://other.example")).descriptor)(),
      "descriptor-id-mismatch",
    ],
  ])(
    "refuses %s with the one message, the detail kept as its cause",
    async (_what, respond, cause) => {
      const source = createDescriptorSource(network(respond).fetchImpl, Date.now, quick);
      const error = await source.get(ORIGIN).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "PaymentError", code: "descriptor-unavailable" });
      expect((error as Error).message).toBe(unusable(ORIGIN));
      const detail = (error as Error).cause;
      if (cause instanceof RegExp) expect(String(detail)).toMatch(cause);
      else expect(detail).toMatchObject({ name: "ProtocolError", code: cause });
    },
  );

  it("stops reading a body past 64 KiB: a 10 MB stream is cancelled, not buffered", async () => {
    let pulled = 0;
    let cancelled = false;
    const chunk = new Uint8Array(16 * 1024).fill(0x20);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 10 * 1024 * 1024) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const source = createDescriptorSource(network(() => new Response(body)).fetchImpl);
    const error = await source.get(ORIGIN).catch((e: unknown) => e);
    expect((error as Error).message).toBe(unusable(ORIGIN));
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(64 * 1024 + 2 * chunk.byteLength);
  });

  it("gives up on a body that trickles past the deadline", async () => {
    const { descriptor } = await makeReceiver();
    const text = JSON.stringify(descriptor);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text.slice(0, 10)));
      },
    });
    const source = createDescriptorSource(
      network(() => new Response(body)).fetchImpl,
      Date.now,
      quick,
    );
    const error = await source.get(ORIGIN).catch((e: unknown) => e);
    expect((error as Error).message).toBe(unusable(ORIGIN));
    expect(String((error as Error).cause)).toMatch(/timeout|aborted/i);
  });

  it("asks https receivers, and plain http ones only on loopback", async () => {
    const { fetchImpl, requests } = await everyOrigin();
    const source = createDescriptorSource(fetchImpl);
    await source.get("http://127.0.0.1:4021");
    await source.get("http://localhost:4021");
    await source.get("http://[::1]:4021");
    const error = await source.get("http://api.example.com").catch((e: unknown) => e);
    expect((error as Error).message).toBe(unusable("http://api.example.com"));
    expect(requests).toHaveLength(3);
  });

  it.each([
    "https://10.0.0.1",
    "https://172.16.5.4",
    "https://192.168.1.1",
    "https://169.254.169.254",
    "http://127.0.0.1:8080",
    "http://localhost:8080",
    "http://[::1]",
    "https://0.0.0.0",
    "https://[fd00::1]",
    "https://[fe80::1]",
    "https://[::ffff:10.0.0.1]",
    "https://printer.local",
    "https://db.corp.internal",
    "https://app.localhost",
  ])("never asks %s for a public page, and says no more than for any failure", async (receiver) => {
    const { fetchImpl, requests } = await everyOrigin();
    const source = createDescriptorSource(fetchImpl);
    const error = await source
      .get(receiver, { requesterOrigin: "https://evil.example" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "PaymentError", code: "descriptor-unavailable" });
    expect((error as Error).message).toBe(unusable(new URL(receiver).origin));
    expect((error as Error).cause).toMatchObject({
      name: "PaymentError",
      code: "descriptor-fetch",
    });
    expect(requests).toEqual([]);
  });

  it("answers a public page probing an intranet host the same, whether refused, redirected or timed out", async () => {
    const target = "https://10.0.0.1";
    const messages = await Promise.all([
      createDescriptorSource(network(redirecting).fetchImpl, Date.now, quick)
        .get(target, { requesterOrigin: "https://evil.example" })
        .catch((e: Error) => e.message),
      createDescriptorSource(network(redirecting).fetchImpl, Date.now, quick)
        .get(target)
        .catch((e: Error) => e.message),
      createDescriptorSource(network(stalled).fetchImpl, Date.now, quick)
        .get(target)
        .catch((e: Error) => e.message),
    ]);
    expect(new Set(messages)).toEqual(new Set([unusable(target)]));
  });

  it("lets a loopback page (the demo) and a private one reach receivers of their own network", async () => {
    const { fetchImpl, requests } = await everyOrigin();
    const source = createDescriptorSource(fetchImpl);
    await source.get("http://127.0.0.1:4021", { requesterOrigin: "http://127.0.0.1:4020" });
    await source.get("https://10.0.0.1", { requesterOrigin: "https://intranet.corp.internal" });
    await source.get(ORIGIN, { requesterOrigin: "https://evil.example" });
    expect(requests).toHaveLength(3);
    const error = await source
      .get("http://127.0.0.1:4021", { requesterOrigin: "https://intranet.corp.internal" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "PaymentError", code: "descriptor-unavailable" });
  });

  it("checks the requester before the cache: a descriptor cached for the demo is not served to a public page", async () => {
    const { fetchImpl } = await everyOrigin();
    const source = createDescriptorSource(fetchImpl);
    await source.get("http://127.0.0.1:4021", { requesterOrigin: "http://127.0.0.1:4020" });
    await expect(
      source.get("http://127.0.0.1:4021", { requesterOrigin: "https://evil.example" }),
    ).rejects.toMatchObject({ name: "PaymentError", code: "descriptor-unavailable" });
  });

  it("refuses a receiver id that is not a URL", async () => {
    const { fetchImpl, requests } = await everyOrigin();
    await expect(createDescriptorSource(fetchImpl).get("not a url")).rejects.toThrow(
      unusable('"not a url"'),
    );
    expect(requests).toEqual([]);
  });
});
