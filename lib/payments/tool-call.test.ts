import { describe, expect, it } from "vitest";
import { argsHash } from "../protocol/canonical-json";
import type { Offer } from "../protocol/offer";
import { boundCall, toolCall } from "./tool-call";

async function offerFor(args: unknown): Promise<Offer> {
  return {
    protocol: "stipendex",
    transport: "mcp",
    receiver: "https://api.example",
    resource: {
      kind: "mcp",
      server: "https://api.example/mcp",
      tool: "search",
      argsHash: await argsHash(args),
    },
    description: "One search",
    options: [],
  };
}

describe("toolCall", () => {
  it("is an MCP price's call, arguments or none; an HTTP price's, the call its page describes", () => {
    expect(toolCall({ transport: "mcp", server: "s", tool: "t", arguments: { q: 1 } })).toEqual({
      arguments: { q: 1 },
    });
    expect(toolCall({ transport: "mcp", server: "s", tool: "t", arguments: undefined })).toEqual({
      arguments: undefined,
    });
    expect(
      toolCall({
        transport: "http",
        url: "u",
        method: "GET",
        body: "",
        paymentRequiredHeader: null,
      }),
    ).toBeUndefined();
    const call = { tool: "verify_agent", arguments: { agent: "a-1" } };
    expect(
      toolCall({
        transport: "http",
        url: "u",
        method: "POST",
        body: "",
        paymentRequiredHeader: null,
        call,
      }),
    ).toEqual(call);
  });
});

describe("boundCall", () => {
  it("keeps a call whose arguments the price is for (none sent hash as {})", async () => {
    const call = { arguments: { q: "cats" } };
    expect(await boundCall(await offerFor({ q: "cats" }), call)).toBe(call);
    const none = { arguments: undefined };
    expect(await boundCall(await offerFor({}), none)).toBe(none);
  });

  it("drops arguments the price is not for: a page asking again under the same id with others", async () => {
    expect(
      await boundCall(await offerFor({ q: "cats" }), { arguments: { q: "dogs" } }),
    ).toBeUndefined();
    expect(await boundCall(await offerFor({ q: "cats" }), undefined)).toBeUndefined();
  });

  it("shows with an HTTP price the tool its page names, which the price cannot bind", async () => {
    const offer: Offer = {
      ...(await offerFor({})),
      transport: "http",
      resource: { kind: "http", method: "POST", url: "https://api.example/mcp" },
    };
    const described = { tool: "verify_agent", arguments: { agent: "a-1" } };
    expect(await boundCall(offer, described)).toBe(described);
    // An MCP price's arguments alone name no tool to show beside an address.
    expect(await boundCall(offer, { arguments: { agent: "a-1" } })).toBeUndefined();
    expect(await boundCall(await offerFor({}), described)).toBeUndefined();
  });
});
