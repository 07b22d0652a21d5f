import { describe, expect, it } from "vitest";
import type { PolicyView } from "../messages";
import { memoryStore } from "../wallet/key-value-store";
import { decidePayment } from "../wallet/policy";
import {
  defaultPolicy,
  InvalidPolicyError,
  POLICY_KEY,
  PolicyStore,
  parsePolicyView,
  toSettings,
  toView,
} from "./policy-store";

const ORIGIN = "https://agent.example";
const USDC_BASE = {
  scheme: "exact" as const,
  network: "eip155:8453" as const,
  chainId: 8453,
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" as const,
  amount: 1000n,
  decimals: 6,
  symbol: "USDC",
  payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C" as const,
  maxTimeoutSeconds: 60,
  eip712: { name: "USD Coin", version: "2" },
  raw: {},
};

const custom: PolicyView = {
  ...defaultPolicy(),
  globalCaps: { USD: { day: "7000000" }, EUR: { month: "9" } },
  origins: {
    [ORIGIN]: {
      currency: "USD",
      amount: "1000000",
      period: "week",
      autoApproveUpTo: "50000",
      perCallMax: "200000",
    },
  },
  receivers: { allow: ["https://api.example.com"], deny: ["https://bad.example"] },
  trustedRegistries: [{ name: "Reg", url: "https://reg.example", jwk: { kty: "OKP" } }],
};

describe("defaultPolicy", () => {
  it("auto-approves nothing: no site has a budget, so a payment is asked about", () => {
    const view = defaultPolicy();
    expect(view.origins).toEqual({});
    expect(view.globalCaps).toEqual({ USD: { day: "5000000", month: "50000000" } });
    expect(view.networks).toContain("eip155:8453");
    const decision = decidePayment(toSettings(view), {
      origin: ORIGIN,
      receiver: "https://api.example.com",
      option: USDC_BASE,
      spent: new Map(),
      now: 0,
    });
    expect(decision).toMatchObject({ action: "ask", rule: "origin-no-budget" });
  });
});

describe("toSettings / toView", () => {
  it("round-trips a view through settings with exact bigint amounts", () => {
    const settings = toSettings(custom);
    expect(settings.origins[ORIGIN]).toEqual({
      currency: "USD",
      amount: 1_000_000n,
      period: "week",
      autoApproveUpTo: 50_000n,
      perCallMax: 200_000n,
    });
    expect(settings.globalCaps).toEqual({ USD: { day: 7_000_000n }, EUR: { month: 9n } });
    expect(toView(settings, custom.trustedRegistries)).toEqual(custom);
  });
});

describe("parsePolicyView", () => {
  it.each([
    ["a fractional amount", { globalCaps: { USD: { day: "1.5" } } }, "globalCaps.USD.day"],
    [
      "a path, not an origin",
      { origins: { "https://a.example/x": custom.origins[ORIGIN] } },
      "origins",
    ],
    ["a non-EVM network", { networks: ["solana:mainnet"] }, "networks.0"],
    [
      "a bad asset address",
      { assets: [{ ...defaultPolicy().assets[0], asset: "0x12" }] },
      "assets.0.asset",
    ],
  ])("refuses %s with InvalidPolicyError naming the field", (_what, change, path) => {
    const bad = { ...defaultPolicy(), ...change };
    expect(() => parsePolicyView(bad)).toThrow(InvalidPolicyError);
    expect(() => parsePolicyView(bad)).toThrow(path);
  });

  it("refuses a value that is not a policy at all", () => {
    expect(() => parsePolicyView("nope")).toThrow(/Invalid settings: \(root\)/);
  });
});

describe("PolicyStore", () => {
  it("serves the default until saved, then what was saved", async () => {
    const local = memoryStore();
    const store = new PolicyStore(local);
    expect(await store.view()).toEqual(defaultPolicy());
    expect(await store.save(custom)).toEqual(custom);
    expect(await new PolicyStore(local).view()).toEqual(custom);
    expect((await store.settings()).receivers.deny).toEqual(["https://bad.example"]);
  });

  it("stores nothing when the input is invalid", async () => {
    const local = memoryStore();
    const store = new PolicyStore(local);
    await expect(store.save({ ...custom, networks: [1] })).rejects.toBeInstanceOf(
      InvalidPolicyError,
    );
    expect(await local.get(POLICY_KEY)).toBeUndefined();
  });

  it("saves settings keeping the trusted registries it cannot express", async () => {
    const store = new PolicyStore(memoryStore());
    await store.save(custom);
    const settings = await store.settings();
    await store.saveSettings({ ...settings, origins: {} });
    const view = await store.view();
    expect(view.origins).toEqual({});
    expect(view.trustedRegistries).toEqual(custom.trustedRegistries);
  });
});
