import { describe, expect, it } from "vitest";
import { resolveNetwork } from "./networks";
import { createRegistry, readToken } from "./registry";

const base = resolveNetwork("base");
const local = resolveNetwork("eip155:31337");
const localToken = {
  network: "eip155:31337",
  address: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  symbol: "USDC",
  decimals: 6,
  eip712: { name: "USD Coin", version: "2" },
  currency: "USD",
};

describe("createRegistry", () => {
  it("knows Base USDC by address in any letter case", () => {
    const registry = createRegistry();
    const token = registry.token(base, "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913");
    expect(token).toMatchObject({
      address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      decimals: 6,
      symbol: "USDC",
      eip712: { name: "USD Coin", version: "2" },
      currency: "USD",
    });
  });

  it("signs Base Sepolia USDC as USDC and X Layer USDT0 as seed 004 says", () => {
    const registry = createRegistry();
    expect(
      registry.token(resolveNetwork("base-sepolia"), "0x036CbD53842c5426634e7929541eC2318f3dCF7e")
        .eip712,
    ).toEqual({ name: "USDC", version: "2" });
    expect(registry.token(resolveNetwork("x-layer"), "USDT0")).toMatchObject({
      address: "0x779Ded0c9e1022225f8E0630b35a9b54bE713736",
      eip712: { name: "USDTToken", version: "1" },
    });
  });

  it("does not find a token on the wrong network", () => {
    expect(() =>
      createRegistry().token(
        resolveNetwork("polygon"),
        "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      ),
    ).toThrow(expect.objectContaining({ code: "unknown-asset" }));
  });

  it("adds local-chain tokens at runtime without touching other registries", () => {
    const withLocal = createRegistry([localToken]);
    expect(withLocal.token(local, localToken.address).address).toBe(
      "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    );
    expect(() => createRegistry().token(local, localToken.address)).toThrow(/unknown asset/);
    expect(withLocal.tokens().length).toBe(createRegistry().tokens().length + 1);
  });

  it("lets an extra token replace a known one at the same address", () => {
    const registry = createRegistry([
      {
        ...localToken,
        network: "base",
        address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        decimals: 18,
      },
    ]);
    expect(registry.token(base, "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913").decimals).toBe(18);
    expect(registry.tokens().length).toBe(createRegistry().tokens().length);
  });

  it("refuses a symbol that two tokens share", () => {
    const registry = createRegistry([
      localToken,
      { ...localToken, address: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512" },
    ]);
    expect(() => registry.token(local, "USDC")).toThrow(
      expect.objectContaining({ code: "unknown-asset" }),
    );
  });

  it("resolves networks", () => {
    expect(createRegistry().network("anvil").chainId).toBe(31337);
  });
});

describe("readToken", () => {
  it("checksums the address", () => {
    expect(readToken(localToken).address).toBe("0x5FbDB2315678afecb367f032d93F642f64180aa3");
  });

  it.each([
    [{ ...localToken, decimals: undefined }, "missing-decimals"],
    [{ ...localToken, decimals: "6" }, "missing-decimals"],
    [{ ...localToken, decimals: 6.5 }, "missing-decimals"],
    [{ ...localToken, decimals: 99 }, "missing-decimals"],
    [{ ...localToken, address: "0x1234" }, "invalid-token"],
    [{ ...localToken, address: "0x5FbDB2315678afecb367f032d93F642f64180aA3" }, "invalid-token"],
    [{ ...localToken, symbol: "" }, "invalid-token"],
    [{ ...localToken, eip712: { name: "USD Coin" } }, "invalid-token"],
    [{ ...localToken, currency: 5 }, "invalid-token"],
    [{ ...localToken, network: "eip155:5" }, "unknown-network"],
    ["USDC", "invalid-token"],
    [null, "invalid-token"],
  ])("refuses %j with %s", (entry, code) => {
    expect(() => readToken(entry)).toThrow(expect.objectContaining({ code }));
  });
});
