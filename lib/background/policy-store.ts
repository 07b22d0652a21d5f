import { z } from "zod";
import { StipendexError } from "../errors";
import type { OriginBudgetView, PolicyView } from "../messages";
import type { Address, Caip2 } from "../protocol/offer";
import { NETWORKS } from "../protocol/rails/networks";
import { KNOWN_TOKENS } from "../protocol/rails/tokens";
import type { KeyValueStore } from "../wallet/key-value-store";
import type { PolicySettings } from "../wallet/policy-settings";

export const POLICY_KEY = "stipendex.policy";

/** A policy the settings page sent that the wallet will not store. */
export class InvalidPolicyError extends StipendexError {
  override name = "InvalidPolicyError";
  constructor(detail: string) {
    super("invalid-policy", `Invalid settings: ${detail}`);
  }
}

const micro = z.string().regex(/^\d{1,30}$/, "must be a whole number of micro units");
const budgetSchema = z.object({
  currency: z.string().min(1).max(16),
  amount: micro,
  period: z.enum(["day", "week", "month", "none"]),
  autoApproveUpTo: micro,
  perCallMax: micro,
});
const policySchema = z.object({
  globalCaps: z.record(z.string(), z.object({ day: micro.optional(), month: micro.optional() })),
  origins: z.record(z.string().regex(/^https?:\/\/[^/]+$/, "must be an origin"), budgetSchema),
  receivers: z.object({ allow: z.array(z.string()), deny: z.array(z.string()) }),
  networks: z.array(z.string().regex(/^eip155:\d+$/)),
  assets: z.array(
    z.object({
      network: z.string().regex(/^eip155:\d+$/),
      asset: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
      decimals: z.int().min(0).max(36),
      symbol: z.string().min(1),
      currency: z.string().min(1),
    }),
  ),
  trustedRegistries: z.array(z.object({ name: z.string(), url: z.string(), jwk: z.unknown() })),
});

/**
 * First-run policy: small global caps, every known network and stablecoin, and
 * no budget for any site — so nothing is auto-approved until the person says so.
 */
export function defaultPolicy(): PolicyView {
  return {
    globalCaps: { USD: { day: "5000000", month: "50000000" } },
    origins: {},
    receivers: { allow: [], deny: [] },
    networks: NETWORKS.map((n) => n.caip2),
    assets: KNOWN_TOKENS.filter((t) => t.currency !== undefined).map((t) => ({
      network: t.network,
      asset: t.address,
      decimals: t.decimals,
      symbol: t.symbol,
      currency: t.currency ?? "",
    })),
    trustedRegistries: [],
  };
}

export function parsePolicyView(value: unknown): PolicyView {
  const parsed = policySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidPolicyError(
      `${issue?.path.join(".") || "(root)"} ${issue?.message ?? ""}`.trim(),
    );
  }
  return parsed.data as PolicyView;
}

export function toSettings(view: PolicyView): PolicySettings {
  const budget = (b: OriginBudgetView) => ({
    currency: b.currency,
    amount: BigInt(b.amount),
    period: b.period,
    autoApproveUpTo: BigInt(b.autoApproveUpTo),
    perCallMax: BigInt(b.perCallMax),
  });
  return {
    globalCaps: Object.fromEntries(
      Object.entries(view.globalCaps).map(([currency, caps]) => [
        currency,
        {
          ...(caps.day === undefined ? {} : { day: BigInt(caps.day) }),
          ...(caps.month === undefined ? {} : { month: BigInt(caps.month) }),
        },
      ]),
    ),
    origins: Object.fromEntries(Object.entries(view.origins).map(([o, b]) => [o, budget(b)])),
    receivers: { allow: [...view.receivers.allow], deny: [...view.receivers.deny] },
    networks: view.networks as Caip2[],
    assets: view.assets.map((a) => ({
      ...a,
      network: a.network as Caip2,
      asset: a.asset as Address,
    })),
  };
}

export function toView(
  settings: PolicySettings,
  trustedRegistries: PolicyView["trustedRegistries"],
): PolicyView {
  return {
    globalCaps: Object.fromEntries(
      Object.entries(settings.globalCaps).map(([currency, caps]) => [
        currency,
        {
          ...(caps.day === undefined ? {} : { day: caps.day.toString() }),
          ...(caps.month === undefined ? {} : { month: caps.month.toString() }),
        },
      ]),
    ),
    origins: Object.fromEntries(
      Object.entries(settings.origins).map(([origin, b]) => [
        origin,
        {
          currency: b.currency,
          amount: b.amount.toString(),
          period: b.period,
          autoApproveUpTo: b.autoApproveUpTo.toString(),
          perCallMax: b.perCallMax.toString(),
        },
      ]),
    ),
    receivers: { allow: [...settings.receivers.allow], deny: [...settings.receivers.deny] },
    networks: [...settings.networks],
    assets: settings.assets.map((a) => ({ ...a })),
    trustedRegistries,
  };
}

/** The person's policy, kept in storage.local as JSON-safe strings. */
export class PolicyStore {
  constructor(private readonly local: KeyValueStore) {}

  async view(): Promise<PolicyView> {
    const stored = await this.local.get(POLICY_KEY);
    return stored === undefined ? defaultPolicy() : parsePolicyView(stored);
  }

  async settings(): Promise<PolicySettings> {
    return toSettings(await this.view());
  }

  async save(view: unknown): Promise<PolicyView> {
    const checked = parsePolicyView(view);
    await this.local.set(POLICY_KEY, checked);
    return checked;
  }

  async saveSettings(settings: PolicySettings): Promise<void> {
    const current = await this.view();
    await this.save(toView(settings, current.trustedRegistries));
  }
}
