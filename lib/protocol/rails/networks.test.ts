import { describe, expect, it } from "vitest";
import { knownNetwork, NETWORKS, networkLabel, resolveNetwork } from "./networks";

describe("resolveNetwork", () => {
  it.each([
    ["base", 8453, false],
    ["eip155:8453", 8453, false],
    ["base-sepolia", 84532, true],
    ["ethereum", 1, false],
    ["polygon", 137, false],
    ["arbitrum", 42161, false],
    ["avalanche", 43114, false],
    ["avalanche-fuji", 43113, true],
    ["x-layer", 196, false],
    ["eip155:196", 196, false],
    ["localhost", 31337, true],
    ["anvil", 31337, true],
    ["eip155:31337", 31337, true],
  ])("%s is chain %i (testnet %s)", (id, chainId, testnet) => {
    const network = resolveNetwork(id);
    expect(network.chainId).toBe(chainId);
    expect(network.caip2).toBe(`eip155:${chainId}`);
    expect(network.testnet).toBe(testnet);
  });

  it.each([
    "eip155:999999",
    "eip155:08453",
    "eip155:",
    "EIP155:8453",
    "solana",
    "Base",
    " base",
    "eip155:8453 ",
    "",
  ])("refuses %j with unknown-network", (id) => {
    expect(() => resolveNetwork(id)).toThrow(expect.objectContaining({ code: "unknown-network" }));
  });

  it.each([8453, null, undefined, {}])("refuses non-string %j", (id) => {
    expect(() => resolveNetwork(id)).toThrow(/unknown network/);
  });

  it("has unique chain ids and names", () => {
    expect(new Set(NETWORKS.map((n) => n.chainId)).size).toBe(NETWORKS.length);
    const names = NETWORKS.flatMap((n) => n.names);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("knownNetwork and networkLabel", () => {
  it("find a network by its CAIP-2 id only, and show an unknown one by its id", () => {
    expect(knownNetwork("eip155:84532")).toMatchObject({ label: "Base Sepolia", testnet: true });
    expect(knownNetwork("base-sepolia")).toBeUndefined();
    expect(knownNetwork("eip155:999")).toBeUndefined();
    expect(networkLabel("eip155:8453")).toBe("Base");
    expect(networkLabel("eip155:999")).toBe("eip155:999");
  });
});
