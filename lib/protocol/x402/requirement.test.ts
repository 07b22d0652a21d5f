import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import {
  BASE_SEPOLIA_USDC,
  PAY_TO,
  v1Requirement,
  v2Requirement,
} from "../../../tests/unit-support/protocol/x402/test-fixtures";
import { createRegistry } from "../rails/registry";
import { readRequirement } from "./requirement";

const registry = createRegistry();

describe("readRequirement", () => {
  it("reads a v2 requirement into a PaymentOption and keeps it verbatim in raw", () => {
    const option = readRequirement(v2Requirement, 2, 0, registry);
    expect(option).toEqual({
      scheme: "exact",
      network: "eip155:84532",
      chainId: 84532,
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      amount: 10000n,
      decimals: 6,
      symbol: "USDC",
      payTo: PAY_TO,
      maxTimeoutSeconds: 60,
      eip712: { name: "USDC", version: "2" },
      raw: v2Requirement,
    });
    expect(option.raw).toBe(v2Requirement);
  });

  it("reads v1 maxAmountRequired and v1 network names", () => {
    const option = readRequirement(v1Requirement, 1, 0, registry);
    expect(option.amount).toBe(10000n);
    expect(option.network).toBe("eip155:84532");
  });

  it("reads seed 004's X Layer form: v1 name, symbol asset, `amount`", () => {
    const seed = {
      scheme: "exact",
      network: "x-layer",
      amount: "10000",
      asset: "USDT0",
      payTo: PAY_TO,
      maxTimeoutSeconds: 60,
      extra: { name: "USDTToken", version: "1" },
    };
    expect(readRequirement(seed, 1, 0, registry)).toMatchObject({
      chainId: 196,
      asset: "0x779Ded0c9e1022225f8E0630b35a9b54bE713736",
      amount: 10000n,
      symbol: "USDT0",
      eip712: { name: "USDTToken", version: "1" },
    });
  });

  it("signs X Layer USDT0 under the domain a server names of the two it is known by, and no other", () => {
    const xLayer = {
      scheme: "exact",
      network: "eip155:196",
      amount: "10000",
      asset: "0x779Ded0c9e1022225f8E0630b35a9b54bE713736",
      payTo: PAY_TO,
      maxTimeoutSeconds: 60,
    };
    const named = (extra: object) => readRequirement({ ...xLayer, extra }, 2, 0, registry).eip712;
    expect(named({ name: "USD₮0", version: "1" })).toEqual({ name: "USD₮0", version: "1" });
    expect(named({ name: "USDTToken", version: "1" })).toEqual({ name: "USDTToken", version: "1" });
    expect(readRequirement(xLayer, 2, 0, registry).eip712).toEqual({
      name: "USDTToken",
      version: "1",
    });
    for (const extra of [
      { name: "USDT0", version: "1" },
      { name: "USD₮0", version: "2" },
    ]) {
      expect(() => named(extra)).toThrow(expect.objectContaining({ code: "domain-mismatch" }));
    }
  });

  it.each([86_401, 172_800, 31_536_000])(
    "takes a server's maxTimeoutSeconds of %j, signing for a day at most",
    (maxTimeoutSeconds) => {
      const option = readRequirement({ ...v2Requirement, maxTimeoutSeconds }, 2, 0, registry);
      expect(option.maxTimeoutSeconds).toBe(86_400);
      expect(option.raw).toMatchObject({ maxTimeoutSeconds });
    },
  );

  it("lists the default timeout it applies to a missing or null maxTimeoutSeconds", () => {
    const { maxTimeoutSeconds: _left, ...missing } = v2Requirement;
    for (const requirement of [missing, { ...v2Requirement, maxTimeoutSeconds: null }]) {
      const option = readRequirement(requirement, 2, 0, registry);
      expect(option.maxTimeoutSeconds).toBe(60);
      expect(option.defaults).toContainEqual({
        field: "accepts[0].maxTimeoutSeconds",
        value: "60 s",
      });
    }
  });

  it("refuses a domain other than the one the known token's contract signs with", () => {
    // Signed under a domain the contract does not check, the authorization would be refused
    // on chain after the wallet had counted it against the budget.
    for (const named of [
      { name: "USD Coin", version: "1" },
      { name: "USDC", version: "1" },
      { name: "usdc", version: "2" },
    ]) {
      expect(() => readRequirement({ ...v2Requirement, extra: named }, 2, 2, registry)).toThrow(
        expect.objectContaining({
          name: "ProtocolError",
          code: "domain-mismatch",
          message: `accepts[2].extra names the EIP-712 domain ${JSON.stringify(named.name)} version ${JSON.stringify(named.version)} for USDC (${BASE_SEPOLIA_USDC} on eip155:84532), whose contract signs as "USDC" version "2"`,
        }),
      );
    }
  });

  it("takes the registry's domain for a known token when the requirement names none", () => {
    const { extra: _left, ...bare } = v2Requirement;
    expect(readRequirement(bare, 2, 0, registry).eip712).toEqual({ name: "USDC", version: "2" });
  });

  it("reads a null extra as none, as x402's own schema allows (servers that write unset fields as null)", () => {
    for (const [requirement, version] of [
      [{ ...v2Requirement, extra: null }, 2],
      [{ ...v1Requirement, extra: null }, 1],
    ] as const) {
      const option = readRequirement(requirement, version, 0, registry);
      expect(option.eip712).toEqual({ name: "USDC", version: "2" });
      expect(option.defaults?.map((d) => d.field)).toEqual(["accepts[0].extra.name/version"]);
      // Echoed as the server wrote it.
      expect(option.raw).toBe(requirement);
    }
  });

  it("takes a payTo in any one letter case, and a mixed-case one only with its checksum", () => {
    const hex = PAY_TO.slice(2);
    for (const payTo of [`0x${hex.toUpperCase()}`, `0x${hex.toLowerCase()}`, getAddress(PAY_TO)]) {
      const option = readRequirement({ ...v1Requirement, payTo }, 1, 0, registry);
      expect(option.payTo).toBe(getAddress(PAY_TO));
    }
    const checksummed = getAddress(PAY_TO);
    const flipped = checksummed.replace(/[a-f]/, (letter) => letter.toUpperCase());
    expect(() => readRequirement({ ...v1Requirement, payTo: flipped }, 1, 0, registry)).toThrow(
      expect.objectContaining({ code: "invalid-address" }),
    );
  });

  it("names the index and field in errors", () => {
    expect(() => readRequirement({ ...v2Requirement, amount: 5 }, 2, 3, registry)).toThrow(
      expect.objectContaining({
        code: "amount-not-integer",
        message: expect.stringContaining("accepts[3].amount"),
      }),
    );
    expect(() =>
      readRequirement({ ...v2Requirement, extra: { version: "2" } }, 2, 1, registry),
    ).toThrow(
      expect.objectContaining({
        code: "domain-missing",
        message: expect.stringContaining("accepts[1].extra.name"),
      }),
    );
  });
});
