import { describe, expect, it } from "vitest";
import { DescriptorIdMismatchError } from "../protocol/envelope/errors";
import { makeReceiver, ORIGIN } from "../protocol/envelope/test-fixtures";
import { createDescriptorSource } from "./descriptors";
import { DescriptorUnavailableError } from "./errors";

const URL_OF = `${ORIGIN}/.well-known/stipendex.json`;

/** The network boundary: one response factory, every request recorded with its options. */
function network(respond: () => Response) {
  const requests: { url: string; init: RequestInit | undefined }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push({ url: String(input), init });
    return respond();
  }) as typeof fetch;
  return { fetchImpl, requests };
}

const json =
  (body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { headers });

describe("createDescriptorSource", () => {
  it("fetches the receiver's own well-known URL without credentials or redirects, and caches it", async () => {
    const { descriptor } = await makeReceiver();
    const { fetchImpl, requests } = network(json(descriptor));
    const source = createDescriptorSource(fetchImpl, () => 0);
    expect(await source.get(ORIGIN)).toEqual(descriptor);
    expect(await source.get(ORIGIN)).toEqual(descriptor);
    expect(requests).toEqual([{ url: URL_OF, init: { credentials: "omit", redirect: "error" } }]);
    await source.get(ORIGIN, { refresh: true });
    expect(requests).toHaveLength(2);
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

  it.each([
    ["a 404", () => new Response("", { status: 404 }), /answered 404/],
    ["non-JSON", () => new Response("<html>"), /is not JSON/],
    ["more than 64 KiB", () => new Response("x".repeat(64 * 1024 + 1)), /larger than 64 KiB/],
  ])("refuses %s as DescriptorUnavailableError", async (_what, respond, message) => {
    const source = createDescriptorSource(network(respond).fetchImpl);
    const got = source.get(ORIGIN);
    await expect(got).rejects.toBeInstanceOf(DescriptorUnavailableError);
    await expect(got).rejects.toThrow(message);
  });

  it("reports a failed fetch and a receiver id that is not a URL", async () => {
    const failing = (async () => {
      throw new TypeError("network down");
    }) as typeof fetch;
    await expect(createDescriptorSource(failing).get(ORIGIN)).rejects.toThrow(
      `Descriptor of ${ORIGIN} unavailable: fetching ${URL_OF} failed`,
    );
    await expect(createDescriptorSource(failing).get("not a url")).rejects.toBeInstanceOf(
      DescriptorUnavailableError,
    );
  });

  it("refuses a descriptor that names another origin", async () => {
    const { descriptor } = await makeReceiver("https://other.example");
    const source = createDescriptorSource(network(json(descriptor)).fetchImpl);
    await expect(source.get(ORIGIN)).rejects.toBeInstanceOf(DescriptorIdMismatchError);
  });
});
