import { describe, expect, it } from "vitest";
import { readHttpChallenge } from "./http-payment";
import { readCapped } from "./read-capped";

const encoder = new TextEncoder();

/** A body that sends `first` and then never ends (a stream kept open, as an SSE one is). */
function neverEnding(first: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(first));
    },
  });
}

describe("readCapped", () => {
  it("reads a body whole, and one declared by its length without waiting for its end", async () => {
    expect(await readCapped(new Response("a price"), 100)).toBe("a price");
    const declared = new Response(neverEnding('{"quote":1}'), {
      headers: { "content-length": "11" },
    });
    expect(await readCapped(declared, 100, 50)).toBe('{"quote":1}');
  });

  it("gives up on a body that is not all in within its patience: unread", async () => {
    const started = performance.now();
    expect(await readCapped(new Response(neverEnding('{"quote"')), 100, 50)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("readHttpChallenge, a 402 whose body never ends", () => {
  const url = "https://api.example/data";

  it("is no price when nothing but its body could carry one, and the page's copy still streams", async () => {
    const response = new Response(neverEnding('{"quote":'), { status: 402 });
    expect(await readHttpChallenge(response, url, "GET", 50)).toBeUndefined();
    const reader = response.body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe('{"quote":');
  });

  it("is still the price its PAYMENT-REQUIRED header carries", async () => {
    const response = new Response(neverEnding("<html>"), {
      status: 402,
      headers: { "payment-required": "eyJ4NDAyVmVyc2lvbiI6Mn0" },
    });
    expect(await readHttpChallenge(response, url, "GET", 50)).toEqual({
      transport: "http",
      url,
      method: "GET",
      body: "",
      paymentRequiredHeader: "eyJ4NDAyVmVyc2lvbiI6Mn0",
    });
  });
});
