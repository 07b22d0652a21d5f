import { describe, expect, it } from "vitest";
import { memoryStore } from "../../tests/unit-support/wallet/memory-store";
import { openWalletDb } from "../db/schema";
import { ErrorCode, type PolicyView } from "../messages";
import { randomId } from "../random-id";
import { STORAGE_KEYS } from "../storage-keys";
import { decidePayment } from "../wallet/policy";
import { defaultPolicy, PolicyStore, parsePolicyView, toSettings, toView } from "./policy-store";
import { type RpcErrorCode, toWireError } from "./rpc-error";

const rpcError = (code: RpcErrorCode) => expect.objectContaining({ name: "RpcError", code });

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
    // Test money has caps of its own, as large as the real ones.
    expect(view.globalCaps).toEqual({
      USD: { day: "5000000", month: "50000000" },
      "test USD": { day: "5000000", month: "50000000" },
    });
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
    expect(toView(settings, custom)).toEqual(custom);
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
  ])("refuses %s as invalid-policy, naming the field", (_what, change, path) => {
    const bad = { ...defaultPolicy(), ...change };
    expect(() => parsePolicyView(bad)).toThrow(rpcError("invalid-policy"));
    expect(() => parsePolicyView(bad)).toThrow(path);
  });

  it("refuses a value that is not a policy at all", () => {
    expect(() => parsePolicyView("nope")).toThrow(/Invalid settings: \(root\)/);
  });
});

/** The custom policy's one site budget, as settings. */
const customBudget = {
  currency: "USD",
  amount: 1_000_000n,
  period: "week" as const,
  autoApproveUpTo: 50_000n,
  perCallMax: 200_000n,
};

describe("PolicyStore", () => {
  const freshDb = () => openWalletDb(`policy-${randomId()}`);

  it("serves the default until saved, then what was saved, from the wallet's IndexedDB", async () => {
    const db = freshDb();
    const store = new PolicyStore(db);
    const { revision: _first, ...initial } = await store.view();
    expect(initial).toEqual(defaultPolicy());
    const { revision, ...saved } = await store.save(custom);
    expect(saved).toEqual(custom);
    const { revision: again, ...read } = await new PolicyStore(db).view();
    expect(read).toEqual(custom);
    expect(again).toBe(revision);
    expect((await store.settings()).receivers.deny).toEqual(["https://bad.example"]);
  });

  it("reads the database once per worker and keeps what it writes: a payment does not read the policy again", async () => {
    const db = freshDb();
    const store = new PolicyStore(db);
    const first = await store.settings();
    let reads = 0;
    db.settings.hook("reading", (entry) => {
      reads++;
      return entry;
    });
    expect(await store.settings()).toBe(first);
    expect(reads).toBe(0);
    await store.save(custom);
    const afterSave = reads;
    expect((await store.settings()).receivers.deny).toEqual(["https://bad.example"]);
    expect((await store.view()).receivers.deny).toEqual(["https://bad.example"]);
    expect(reads).toBe(afterSave);
    // A restarted worker (a new store) reads what was written.
    expect((await new PolicyStore(db).settings()).receivers.deny).toEqual(["https://bad.example"]);
    expect(reads).toBeGreaterThan(afterSave);
  });

  it("moves a policy kept in storage.local (reachable by content scripts) into IndexedDB", async () => {
    const local = memoryStore();
    await local.set(STORAGE_KEYS.legacyPolicy, custom);
    const db = freshDb();
    const { revision: _r, ...moved } = await new PolicyStore(db, local).view();
    // Test money, counted apart since, gets caps as large as the real ones.
    expect(moved).toEqual({
      ...custom,
      globalCaps: {
        ...custom.globalCaps,
        "test USD": custom.globalCaps.USD,
        "test EUR": custom.globalCaps.EUR,
      },
    });
    expect(await local.get(STORAGE_KEYS.legacyPolicy)).toBeUndefined();
    expect((await db.settings.get("policy"))?.value).toEqual(moved);
  });

  it("drops a stored plain-http site budget (allowed by older versions) and keeps the rest working", async () => {
    const local = memoryStore();
    const budget = custom.origins[ORIGIN];
    await local.set(STORAGE_KEYS.legacyPolicy, {
      ...custom,
      origins: { ...custom.origins, "http://shop.example": budget },
    });
    const view = await new PolicyStore(freshDb(), local).view();
    expect(Object.keys(view.origins)).toEqual([ORIGIN]);
  });

  it("stores nothing when the input is invalid", async () => {
    const db = freshDb();
    const store = new PolicyStore(db);
    const before = await store.view();
    const saved = store.save({ ...custom, networks: [1] });
    await expect(saved).rejects.toThrow(rpcError("invalid-policy"));
    expect(toWireError(await saved.catch((error: unknown) => error))).toEqual({
      code: ErrorCode.InvalidParams,
      message: "Invalid settings: networks.0 Invalid input: expected string, received number",
      data: { reason: "invalid-policy" },
    });
    expect(await store.view()).toEqual(before);
  });

  it("updates the settings as they are now: concurrent changes never undo each other", async () => {
    const store = new PolicyStore(freshDb());
    await store.save(custom);
    await Promise.all(
      ["https://a.example", "https://b.example", "https://c.example"].map((origin) =>
        store.update((settings) => ({
          ...settings,
          origins: { ...settings.origins, [origin]: customBudget },
        })),
      ),
    );
    const view = await store.view();
    expect(Object.keys(view.origins).sort()).toEqual([
      "https://a.example",
      ORIGIN,
      "https://b.example",
      "https://c.example",
    ]);
    expect(view.trustedRegistries).toEqual(custom.trustedRegistries);
  });

  it("keeps the person's RPC endpoints through a change of the payment settings", async () => {
    const store = new PolicyStore(freshDb());
    const rpcEndpoints = { "eip155:84532": "http://127.0.0.1:8545" };
    await store.save({ ...custom, rpcEndpoints });
    await store.update((settings) => ({
      ...settings,
      origins: { ...settings.origins, "https://a.example": customBudget },
    }));
    expect((await store.view()).rpcEndpoints).toEqual(rpcEndpoints);
    await expect(
      store.save({ ...custom, rpcEndpoints: { "eip155:1": "ftp://node.example" } }),
    ).rejects.toMatchObject({
      message: "Invalid settings: rpcEndpoints.eip155:1 must be an http(s) URL",
    });
  });

  it("refuses a save from a page that read an older revision, keeping the change made since", async () => {
    const store = new PolicyStore(freshDb());
    const read = await store.view();
    await store.update((settings) => ({
      ...settings,
      origins: { [ORIGIN]: customBudget },
    }));
    const stale = store.save({ ...read, receivers: { allow: [], deny: ["x"] } });
    await expect(stale).rejects.toThrow(rpcError("stale-policy"));
    expect(toWireError(await stale.catch((error: unknown) => error))).toEqual({
      code: ErrorCode.InvalidParams,
      message:
        "Your settings changed since this page read them (revision 0, now 1): reload them and make your change again",
      data: { reason: "stale-policy" },
    });
    expect(Object.keys((await store.view()).origins)).toEqual([ORIGIN]);
    const fresh = await store.view();
    await expect(
      store.save({ ...fresh, receivers: { allow: [], deny: ["x"] } }),
    ).resolves.toMatchObject({
      receivers: { deny: ["x"] },
    });
  });
});

describe("site budgets", () => {
  it("are refused for plain-http origins other than loopback", () => {
    const budget = custom.origins[ORIGIN];
    expect(() =>
      parsePolicyView({ ...custom, origins: { "http://shop.example": budget } }),
    ).toThrow(rpcError("invalid-policy"));
    expect(
      Object.keys(
        parsePolicyView({ ...custom, origins: { "http://127.0.0.1:4020": budget } }).origins,
      ),
    ).toEqual(["http://127.0.0.1:4020"]);
  });

  it("may be a desktop app's proxy's, keyed by its upstream server, under the same rule", () => {
    const budget = custom.origins[ORIGIN];
    expect(
      Object.keys(
        parsePolicyView({ ...custom, origins: { "proxy:https://mcp.example": budget } }).origins,
      ),
    ).toEqual(["proxy:https://mcp.example"]);
    expect(() =>
      parsePolicyView({ ...custom, origins: { "proxy:http://mcp.example": budget } }),
    ).toThrow(rpcError("invalid-policy"));
  });
});
