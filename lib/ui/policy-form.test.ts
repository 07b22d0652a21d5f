import { describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import type { PolicyView } from "../messages";
import type { UiErrorCode } from "./errors";
import { t } from "./i18n";
import { fromPolicyForm, toPolicyForm } from "./policy-form";

const uiError = (code: UiErrorCode) => expect.objectContaining({ name: "UiError", code });

const policy: PolicyView = {
  globalCaps: { USD: { day: "5000000", month: "50000000" }, EUR: { month: "1" } },
  origins: {
    "https://agent.example": {
      currency: "USD",
      amount: "2000000",
      period: "day",
      autoApproveUpTo: "10000",
      perCallMax: "500000",
    },
  },
  receivers: {
    allow: ["did:web:a.example"],
    deny: ["did:web:bad.example", "did:web:worse.example"],
  },
  networks: ["eip155:84532", "eip155:8453"],
  assets: [
    {
      network: "eip155:84532",
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      decimals: 6,
      symbol: "USDC",
      currency: "USD",
    },
  ],
  trustedRegistries: [
    { name: "Demo", url: "https://reg.example", jwk: { kty: "OKP", crv: "Ed25519", x: "abc" } },
  ],
};

describe("policy form", () => {
  it("shows micro amounts as editable decimals", () => {
    const form = toPolicyForm(policy);
    expect(form.caps).toEqual([
      { currency: "USD", day: "5", month: "50" },
      { currency: "EUR", day: "", month: "0.000001" },
    ]);
    expect(form.origins[0]).toMatchObject({
      amount: "2",
      autoApproveUpTo: "0.01",
      perCallMax: "0.5",
    });
    expect(form.deny).toEqual(["did:web:bad.example", "did:web:worse.example"]);
    expect(form.assets[0]?.decimals).toBe("6");
  });
  it("round-trips to the same policy", () => {
    expect(fromPolicyForm(toPolicyForm(policy))).toEqual(policy);
  });
  it("edits with the language's decimal mark and round-trips in it", () => {
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
    const form = toPolicyForm(policy);
    expect(form.origins[0]).toMatchObject({ autoApproveUpTo: "0,01", perCallMax: "0,5" });
    expect(fromPolicyForm(form)).toEqual(policy);
    vi.restoreAllMocks();
  });
  it("reads edits: blank entries dropped, an empty auto-approve is 0, an empty cap is no cap", () => {
    const form = toPolicyForm(policy);
    form.networks = ["eip155:8453", "", "  eip155:1 "];
    const [origin] = form.origins;
    if (!origin) throw new Error("fixture has an origin");
    origin.autoApproveUpTo = "";
    form.caps = [{ currency: "USD", day: "", month: "12.5" }];
    const next = fromPolicyForm(form);
    expect(next.networks).toEqual(["eip155:8453", "eip155:1"]);
    expect(next.origins["https://agent.example"]?.autoApproveUpTo).toBe("0");
    expect(next.globalCaps).toEqual({ USD: { month: "12500000" } });
  });
  // A second row would replace the first: "Add cap" then Save removed the USD caps.
  it("refuses two cap rows for one currency and two budgets for one site, naming them", () => {
    const caps = toPolicyForm(policy);
    caps.caps.push({ currency: "USD", day: "", month: "" });
    expect(() => fromPolicyForm(caps)).toThrow(uiError("duplicate-row"));
    expect(() => fromPolicyForm(caps)).toThrow("Two spending caps are for USD");
    const sites = toPolicyForm(policy);
    sites.origins.push({ ...(sites.origins[0] as (typeof sites.origins)[0]), amount: "9" });
    expect(() => fromPolicyForm(sites)).toThrow(uiError("duplicate-row"));
    expect(() => fromPolicyForm(sites)).toThrow("Two budgets are for https://agent.example");
  });
  it("names the field that is wrong", () => {
    const form = toPolicyForm(policy);
    form.caps = [{ currency: "USD", day: "1.2345678", month: "" }];
    expect(() => fromPolicyForm(form)).toThrow(uiError("invalid-money-input"));
    expect(() => fromPolicyForm(form)).toThrow(/Daily cap \(USD\)/);
    const noOrigin = toPolicyForm(policy);
    noOrigin.origins.push({
      ...(noOrigin.origins[0] as (typeof noOrigin.origins)[0]),
      origin: " ",
    });
    expect(() => fromPolicyForm(noOrigin)).toThrow(uiError("missing-field"));
    const badKey = toPolicyForm(policy);
    badKey.registries = [{ name: "Demo", url: "https://reg.example", jwk: "[1]" }];
    expect(() => fromPolicyForm(badKey)).toThrow(uiError("invalid-jwk-input"));
    const badDecimals = toPolicyForm(policy);
    badDecimals.assets = [
      { ...(badDecimals.assets[0] as (typeof badDecimals.assets)[0]), decimals: "6.5" },
    ];
    expect(() => fromPolicyForm(badDecimals)).toThrow(uiError("invalid-decimals-input"));
  });

  it("names a field by the label the settings page shows for it", () => {
    const noOrigin = toPolicyForm(policy);
    noOrigin.origins.push({
      ...(noOrigin.origins[0] as (typeof noOrigin.origins)[0]),
      origin: " ",
    });
    expect(() => fromPolicyForm(noOrigin)).toThrow(`${t("settings.sites.origin")} is required`);
    const badBudget = toPolicyForm(policy);
    const site = badBudget.origins[0] as (typeof badBudget.origins)[0];
    site.perCallMax = "lots";
    expect(() => fromPolicyForm(badBudget)).toThrow(
      `${t("settings.sites.perCallFor", [site.origin])} must be an amount`,
    );
    const noSymbol = toPolicyForm(policy);
    noSymbol.assets = [{ ...(noSymbol.assets[0] as (typeof noSymbol.assets)[0]), symbol: "" }];
    expect(() => fromPolicyForm(noSymbol)).toThrow(
      `${t("settings.tokens.customSymbol")} is required`,
    );
  });
});
