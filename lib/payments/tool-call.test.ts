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
  it("is an MCP price's call, arguments or none; an HTTP price has none", () => {
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
});
