import type { OriginBudgetView, PolicyView } from "../messages";
import { UiError } from "./errors";
import { t } from "./i18n";
import { inputToMicro, microToInput } from "./money";

/** Money fields hold what the person types ("1.25"); "" means "no cap". */
export interface CapRow {
  currency: string;
  day: string;
  month: string;
}

export interface OriginRow {
  origin: string;
  currency: string;
  amount: string;
  period: OriginBudgetView["period"];
  autoApproveUpTo: string;
  perCallMax: string;
  withinPriceHint: boolean;
}

export interface AssetRow {
  network: string;
  asset: string;
  decimals: string;
  symbol: string;
  currency: string;
}

export interface RegistryRow {
  name: string;
  url: string;
  /** The registry's public key as JSON text. */
  jwk: string;
}

/** The settings form: the policy with every value as editable text. */
export interface PolicyForm {
  caps: CapRow[];
  origins: OriginRow[];
  /** Receiver ids always allowed, and never paid. */
  allow: string[];
  deny: string[];
  /** The networks switched on, by CAIP-2 id. */
  networks: string[];
  assets: AssetRow[];
  registries: RegistryRow[];
}

const optionalInput = (micro: string | undefined) =>
  micro === undefined ? "" : microToInput(micro);
const entries = (list: string[]) => list.map((entry) => entry.trim()).filter(Boolean);

export function toPolicyForm(policy: PolicyView): PolicyForm {
  return {
    caps: Object.entries(policy.globalCaps).map(([currency, cap]) => ({
      currency,
      day: optionalInput(cap.day),
      month: optionalInput(cap.month),
    })),
    origins: Object.entries(policy.origins).map(([origin, budget]) => ({
      origin,
      currency: budget.currency,
      amount: microToInput(budget.amount),
      period: budget.period,
      autoApproveUpTo: microToInput(budget.autoApproveUpTo),
      perCallMax: microToInput(budget.perCallMax),
      withinPriceHint: budget.withinPriceHint === true,
    })),
    allow: [...policy.receivers.allow],
    deny: [...policy.receivers.deny],
    networks: [...policy.networks],
    assets: policy.assets.map((asset) => ({ ...asset, decimals: String(asset.decimals) })),
    registries: policy.trustedRegistries.map((registry) => ({
      name: registry.name,
      url: registry.url,
      jwk: JSON.stringify(registry.jwk),
    })),
  };
}

/** `value` trimmed; `field` is the label the settings page shows for it. */
function required(value: string, field: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new UiError("missing-field", t("settings.required", [field]));
  return trimmed;
}

function parseJwk(row: RegistryRow): unknown {
  try {
    const jwk: unknown = JSON.parse(row.jwk);
    if (jwk !== null && typeof jwk === "object" && !Array.isArray(jwk)) return jwk;
  } catch {
    // Reported below with the registry's name.
  }
  throw new UiError("invalid-jwk-input", t("settings.jwkObject", [row.name, row.jwk.slice(0, 40)]));
}

/** The PolicyView for the form; throws a named error naming the first bad field. */
export function fromPolicyForm(form: PolicyForm): PolicyView {
  const globalCaps: PolicyView["globalCaps"] = {};
  for (const row of form.caps) {
    const currency = required(row.currency, t("settings.caps.currencyLabel"));
    if (Object.hasOwn(globalCaps, currency)) {
      throw new UiError("duplicate-row", t("settings.duplicateCap", [currency]));
    }
    const cap: { day?: string; month?: string } = {};
    if (row.day.trim()) cap.day = inputToMicro(row.day, t("settings.caps.day", [currency]));
    if (row.month.trim()) cap.month = inputToMicro(row.month, t("settings.caps.month", [currency]));
    globalCaps[currency] = cap;
  }
  const origins: PolicyView["origins"] = {};
  for (const row of form.origins) {
    const origin = required(row.origin, t("settings.sites.origin"));
    if (Object.hasOwn(origins, origin)) {
      throw new UiError("duplicate-row", t("settings.duplicateSite", [origin]));
    }
    origins[origin] = {
      currency: required(row.currency, t("settings.sites.currencyFor", [origin])),
      amount: inputToMicro(row.amount, t("settings.sites.budgetFor", [origin])),
      period: row.period,
      autoApproveUpTo: inputToMicro(
        row.autoApproveUpTo || "0",
        t("settings.sites.autoFor", [origin]),
      ),
      perCallMax: inputToMicro(row.perCallMax, t("settings.sites.perCallFor", [origin])),
      ...(row.withinPriceHint ? { withinPriceHint: true } : {}),
    };
  }
  return {
    globalCaps,
    origins,
    receivers: { allow: entries(form.allow), deny: entries(form.deny) },
    networks: entries(form.networks),
    assets: form.assets.map((row) => {
      const decimals = Number(required(row.decimals, t("settings.tokens.customDecimals")));
      if (!/^\d{1,2}$/.test(row.decimals.trim()) || decimals > 36) {
        throw new UiError(
          "invalid-decimals-input",
          t("settings.decimalsWhole", [row.asset, row.decimals]),
        );
      }
      return {
        network: required(row.network, t("settings.tokens.customNetwork")),
        asset: required(row.asset, t("settings.tokens.customAddress")),
        decimals,
        symbol: required(row.symbol, t("settings.tokens.customSymbol")),
        currency: required(row.currency, t("settings.tokens.customCurrency")),
      };
    }),
    trustedRegistries: form.registries.map((row) => ({
      name: required(row.name, t("settings.registries.name")),
      url: required(row.url, t("settings.registries.url")),
      jwk: parseJwk(row),
    })),
  };
}
