import { describe, expect, it } from "vitest";
import { argsHash } from "../canonical-json";
import type { ProtocolErrorCode } from "../errors";
import { assertResourceMatches } from "./resource";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

describe("assertResourceMatches", () => {
  it("binds HTTP method and exact URL", async () => {
    const resource = { http: { method: "POST", url: "https://a.example/x?q=1" } };
    await expect(
      assertResourceMatches(resource, {
        kind: "http",
        method: "post",
        url: "https://a.example/x?q=1",
      }),
    ).resolves.toBeUndefined();
    await expect(
      assertResourceMatches(resource, {
        kind: "http",
        method: "POST",
        url: "https://a.example/x?q=2",
      }),
    ).rejects.toThrow(refused("resource-mismatch"));
    await expect(
      assertResourceMatches(resource, { kind: "mcp", server: "https://a.example/x", tool: "t" }),
    ).rejects.toThrow(refused("resource-mismatch"));
  });

  it("binds MCP server, tool and canonical argument hash", async () => {
    const resource = {
      mcp: {
        server: "https://a.example/mcp",
        tool: "t",
        argsHash: await argsHash({ q: "x", n: 1 }),
      },
    };
    const call = { kind: "mcp" as const, server: "https://a.example/mcp", tool: "t" };
    await expect(
      assertResourceMatches(resource, { ...call, arguments: { n: 1, q: "x" } }),
    ).resolves.toBeUndefined();
    await expect(
      assertResourceMatches(resource, { ...call, arguments: { n: 2, q: "x" } }),
    ).rejects.toThrow(/argsHash/);
  });
});
