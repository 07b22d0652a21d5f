import { describe, expect, it } from "vitest";
import { NETWORKS } from "../protocol/rails/networks";
import {
  DEFAULT_RPC_ENDPOINTS,
  networksWithChangedEndpoint,
  parseRpcEndpoints,
  rpcEndpointFor,
} from "./rpc-endpoints";

describe("rpc endpoints", () => {
  it("has a public https endpoint for every network the wallet pays on but the local chain", () => {
    for (const network of NETWORKS.filter((n) => n.chainId !== 31337)) {
      expect(DEFAULT_RPC_ENDPOINTS[network.caip2], network.caip2).toMatch(/^https:\/\//);
    }
  });

  it("prefers the person's endpoint, then the build's, then the default", () => {
    const built = parseRpcEndpoints(
      "eip155:84532=http://127.0.0.1:4025, nonsense, eip155:x=http://a",
    );
    expect(built).toEqual({ "eip155:84532": "http://127.0.0.1:4025" });
    expect(rpcEndpointFor("eip155:84532", {}, built)).toBe("http://127.0.0.1:4025");
    expect(rpcEndpointFor("eip155:84532", { "eip155:84532": "https://my.node" }, built)).toBe(
      "https://my.node",
    );
    expect(rpcEndpointFor("eip155:8453", {}, built)).toBe("https://mainnet.base.org");
    expect(rpcEndpointFor("eip155:31337", {}, {})).toBeUndefined();
  });

  it("names the networks whose chosen endpoint was set, changed or taken out, and no other", () => {
    const before = { "eip155:8453": "https://a.example", "eip155:1": "https://same.example" };
    const after = { "eip155:84532": "https://b.example", "eip155:1": "https://same.example" };
    expect(networksWithChangedEndpoint(before, after)).toEqual(
      new Set(["eip155:8453", "eip155:84532"]),
    );
    expect(networksWithChangedEndpoint(after, after).size).toBe(0);
  });
});
