import { describe, expect, it } from "vitest";
import {
  descriptorNetwork,
  MCP_SERVER,
  quoteFor,
  stipendexHttpChallenge,
  stipendexMcpChallenge,
  x402HttpChallenge,
} from "../../tests/unit-support/payments/test-support";
import {
  alsoListing,
  makeReceiver,
  ORIGIN,
  RAIL,
  SOLANA_RAIL,
  T,
} from "../../tests/unit-support/protocol/envelope/test-fixtures";
import { v1Body, v2PaymentRequired } from "../../tests/unit-support/protocol/x402/test-fixtures";
import type { PaymentChallenge } from "../messages";
import { createRegistry } from "../protocol/rails/registry";
import { encodeBase64Json } from "../protocol/x402/wire";
import { createDescriptorSource, type DescriptorOptions } from "./descriptors";
import { readChallenge, readQuote } from "./read-challenge";

const WELL_KNOWN = `${ORIGIN}/.well-known/stipendex.json`;
const now = () => T * 1000;

async function context() {
  const receiver = await makeReceiver();
  const network = descriptorNetwork({ [WELL_KNOWN]: receiver.descriptor });
  const registry = createRegistry();
  return {
    receiver,
    network,
    context: { registry, descriptors: createDescriptorSource(network.fetchImpl, now), now },
  };
}

describe("readChallenge", () => {
  it("verifies a Stipendex 402 under the receiver's descriptor, bound to the request", async () => {
    const { receiver, context: ctx } = await context();
    const { challenge, jws } = await stipendexHttpChallenge(receiver);
    const { offer, descriptor } = await readChallenge(challenge, ctx);
    expect(descriptor?.id).toBe(ORIGIN);
    expect(offer).toMatchObject({
      protocol: "stipendex",
      transport: "http",
      receiver: ORIGIN,
      resource: { kind: "http", method: "GET", url: `${ORIGIN}/search?q=x` },
      quote: { jws },
    });
    // The name the verified descriptor gives the receiver: history and the window say it.
    expect(offer.receiverName).toBe(descriptor?.name);
    expect(offer.receiverName).toBeTruthy();
  });

  it("refuses a Quote for another URL than the one the page requested", async () => {
    const { receiver, context: ctx } = await context();
    const { challenge } = await stipendexHttpChallenge(receiver);
    const elsewhere = { ...challenge, url: `${ORIGIN}/search?q=y` } as PaymentChallenge;
    await expect(readChallenge(elsewhere, ctx)).rejects.toMatchObject({
      name: "ProtocolError",
      code: "resource-mismatch",
    });
  });

  it("binds an MCP Quote to the tool's arguments", async () => {
    const { receiver, context: ctx } = await context();
    const { challenge } = await stipendexMcpChallenge(receiver, { q: "x" });
    expect((await readChallenge(challenge, ctx)).offer.resource).toMatchObject({
      kind: "mcp",
      server: MCP_SERVER,
      tool: "search",
    });
    const other = { ...challenge, arguments: { q: "y" } } as PaymentChallenge;
    await expect(readChallenge(other, ctx)).rejects.toMatchObject({
      name: "ProtocolError",
      code: "resource-mismatch",
    });
  });

  it("reads x402 as unsigned, from the origin that served it", async () => {
    const { context: ctx } = await context();
    const { offer, descriptor } = await readChallenge(x402HttpChallenge(2), ctx);
    expect(descriptor).toBeUndefined();
    expect(offer).toMatchObject({ protocol: "x402-v2", receiver: "http://127.0.0.1:4021" });
    expect(offer.quote).toBeUndefined();
  });

  it("retries seed 004's binding with X-PAYMENT, also when its 402 body says x402Version 2", async () => {
    const { context: ctx } = await context();
    const call = { tool: "verify_agent", arguments: { agent: "a" } };
    const post = {
      transport: "http" as const,
      url: "http://127.0.0.1:4021/mcp",
      method: "POST",
      body: JSON.stringify(v2PaymentRequired),
      paymentRequiredHeader: null,
    };
    const seed004 = await readChallenge({ ...post, call }, ctx);
    expect(seed004.offer.x402).toMatchObject({ version: 2, retryHeader: "X-PAYMENT" });
    // A plain API's body-only price, or a price in the v2 header, keeps v2's own header.
    expect((await readChallenge(post, ctx)).offer.x402?.retryHeader).toBeUndefined();
    const header = { ...post, call, paymentRequiredHeader: encodeBase64Json(v2PaymentRequired) };
    expect((await readChallenge(header, ctx)).offer.x402?.retryHeader).toBeUndefined();
  });

  describe("a 402 that offers both bindings (seed 000: a receiver MAY support both)", () => {
    const solanaOnly = {
      ...v2PaymentRequired,
      accepts: [
        {
          scheme: "exact",
          network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
          amount: "5000",
          asset: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
          payTo: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
          maxTimeoutSeconds: 60,
        },
      ],
    };

    it.each([
      ["an x402 price the wallet can pay too", v2PaymentRequired],
      ["an x402 price on a network the wallet does not pay on", solanaOnly],
    ])("pays the signed Quote beside %s", async (_what, paymentRequired) => {
      const { receiver, context: ctx } = await context();
      const { challenge } = await stipendexHttpChallenge(receiver);
      const both = { ...challenge, paymentRequiredHeader: encodeBase64Json(paymentRequired) };
      const { offer, descriptor } = await readChallenge(both, ctx);
      expect(offer.protocol).toBe("stipendex");
      expect(descriptor?.id).toBe(ORIGIN);
    });

    it("pays the x402 price when the Quote beside it cannot be read", async () => {
      const { receiver, context: ctx } = await context();
      const { challenge } = await stipendexHttpChallenge(receiver);
      if (challenge.transport !== "http") return expect.unreachable(challenge.transport);
      const broken = challenge.body.replace(/"jws":"[^"]+"/, '"jws":"not.a.quote"');
      expect(broken).not.toBe(challenge.body);
      const both = {
        ...challenge,
        body: broken,
        paymentRequiredHeader: encodeBase64Json(v2PaymentRequired),
      };
      const { offer } = await readChallenge(both, ctx);
      expect(offer.protocol).toBe("x402-v2");
      expect(offer.quoteRefused).toMatch(/not canonical base64url/);
      // Alone, the same Quote is refused with its own error.
      await expect(readChallenge({ ...challenge, body: broken }, ctx)).rejects.toThrow();
    });

    it("pays x402 v1's accepts in the same body when the Quote beside them cannot be read", async () => {
      const { receiver, context: ctx } = await context();
      const { challenge } = await stipendexHttpChallenge(receiver);
      if (challenge.transport !== "http") return expect.unreachable(challenge.transport);
      const { quote } = JSON.parse(challenge.body) as { quote: unknown };
      const body = (q: unknown) => JSON.stringify({ ...v1Body, quote: q });
      const { offer } = await readChallenge({ ...challenge, body: body("not a quote") }, ctx);
      expect(offer.protocol).toBe("x402-v1");
      expect(offer.quoteRefused).toBeDefined();
      // A Quote that reads is still the one paid.
      const signed = await readChallenge({ ...challenge, body: body(quote) }, ctx);
      expect(signed.offer.protocol).toBe("stipendex");
    });
  });

  it.each<[string, PaymentChallenge]>([
    [
      "a -32402 without a quote",
      {
        transport: "mcp",
        server: MCP_SERVER,
        tool: "t",
        arguments: {},
        error: { code: -32402, message: "pay", data: {} },
      },
    ],
    [
      "another MCP error",
      {
        transport: "mcp",
        server: MCP_SERVER,
        tool: "t",
        arguments: {},
        error: { code: -32000, message: "x", data: { quote: {} } },
      },
    ],
    [
      "an ordinary tool result",
      {
        transport: "mcp",
        server: MCP_SERVER,
        tool: "t",
        arguments: {},
        result: { content: [{ type: "text", text: "hi" }] },
      },
    ],
  ])("refuses %s as unreadable-challenge", async (_what, challenge) => {
    const { context: ctx } = await context();
    await expect(readChallenge(challenge, ctx)).rejects.toMatchObject({
      name: "PaymentError",
      code: "unreadable-challenge",
    });
  });
});

describe("readQuote", () => {
  describe("a receiver that also offers rails the wallet cannot pay", () => {
    const unknownChain = { ...RAIL, network: "eip155:999999" };

    async function offering() {
      const receiver = await makeReceiver();
      const descriptor = alsoListing(receiver.descriptor, SOLANA_RAIL, unknownChain);
      const network = descriptorNetwork({ [WELL_KNOWN]: descriptor });
      const ctx = {
        registry: createRegistry(),
        descriptors: createDescriptorSource(network.fetchImpl, now),
        now,
      };
      return { receiver, ctx };
    }

    it("is paid on the rail it can, the Base USDC one", async () => {
      const { receiver, ctx } = await offering();
      const { challenge } = await stipendexHttpChallenge(receiver, {
        rails: [SOLANA_RAIL, unknownChain, RAIL],
      });
      const { offer } = await readChallenge(challenge, ctx);
      expect(offer.options.map((option) => option.raw)).toEqual([RAIL]);
    });

    it.each([
      ["Solana", SOLANA_RAIL],
      ["an EVM chain the wallet does not know", unknownChain],
    ])("is refused as unknown-network when its only rail is on %s", async (_chain, rail) => {
      const { receiver, ctx } = await offering();
      const { challenge } = await stipendexHttpChallenge(receiver, { rails: [rail] });
      await expect(readChallenge(challenge, ctx)).rejects.toMatchObject({
        name: "ProtocolError",
        code: "unknown-network",
      });
    });
  });

  it("fetches the descriptor again, once, when the Quote's key is new (rotation)", async () => {
    const receiver = await makeReceiver();
    const served: Record<string, unknown> = { [WELL_KNOWN]: receiver.descriptor };
    const network = descriptorNetwork(served);
    const ctx = {
      registry: createRegistry(),
      descriptors: createDescriptorSource(network.fetchImpl, now),
      now,
    };
    const { jws: old } = await stipendexHttpChallenge(receiver);
    await readQuote({ stipendex: "quote/0.1", jws: old }, undefined, "http", ctx);
    expect(network.fetched).toEqual([WELL_KNOWN]);

    const rotated = await makeReceiver(ORIGIN, "r2");
    served[WELL_KNOWN] = rotated.descriptor;
    const { jws } = await stipendexHttpChallenge(rotated);
    const { descriptor } = await readQuote({ stipendex: "quote/0.1", jws }, undefined, "http", ctx);
    expect(descriptor?.keys.keys[0]?.kid).toBe("r2");
    expect(network.fetched).toEqual([WELL_KNOWN, WELL_KNOWN]);
  });

  it("refuses a Quote whose payload is not a JWT", async () => {
    const { context: ctx } = await context();
    await expect(
      readQuote(
        { stipendex: "quote/0.1", jws: "eyJhbGciOiJFZERTQSJ9.bm90IGpzb24.c2ln" },
        undefined,
        "http",
        ctx,
      ),
    ).rejects.toMatchObject({ name: "PaymentError", code: "unreadable-challenge" });
  });

  it("fetches the descriptor only if the requesting page may reach the receiver, on a refresh too", async () => {
    const demo = "http://127.0.0.1:4021";
    const page = "http://127.0.0.1:4020";
    const receiver = await makeReceiver(demo);
    const served: Record<string, unknown> = {
      [`${demo}/.well-known/stipendex.json`]: receiver.descriptor,
    };
    const network = descriptorNetwork(served);
    const source = createDescriptorSource(network.fetchImpl, now);
    const asked: (DescriptorOptions | undefined)[] = [];
    const ctx = {
      registry: createRegistry(),
      descriptors: {
        get: (id: string, options?: DescriptorOptions) => {
          asked.push(options);
          return source.get(id, options);
        },
      },
      now,
    };
    const quote = async (r: typeof receiver) => ({
      stipendex: "quote/0.1",
      jws: await quoteFor(r, { iss: demo }),
    });

    await expect(
      readQuote(await quote(receiver), undefined, "http", ctx, "https://evil.example"),
    ).rejects.toMatchObject({ name: "PaymentError", code: "descriptor-unavailable" });
    expect(network.fetched).toEqual([]);
    const { descriptor } = await readQuote(await quote(receiver), undefined, "http", ctx, page);
    expect(descriptor?.id).toBe(demo);

    const rotated = await makeReceiver(demo, "r2");
    served[`${demo}/.well-known/stipendex.json`] = rotated.descriptor;
    await readQuote(await quote(rotated), undefined, "http", ctx, page);
    expect(asked.at(-1)).toEqual({ requesterOrigin: page, refresh: true });
  });
});
