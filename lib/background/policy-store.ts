import Dexie from "dexie";
import { z } from "zod";
import type { SettingsEntry, WalletDb } from "../db/schema";
import { ErrorCode, type OriginBudgetView, type PolicyView } from "../messages";
import type { Address, Caip2 } from "../protocol/offer";
import { NETWORKS } from "../protocol/rails/networks";
import { KNOWN_TOKENS } from "../protocol/rails/tokens";
import { STORAGE_KEYS } from "../storage-keys";
import { canHoldBudget } from "../wallet/budget-origin";
import type { KeyValueStore } from "../wallet/key-value-store";
import type { PolicySettings } from "../wallet/policy-settings";
import { readItem, removeItem, storageItem } from "../wallet/storage-item";
import { isTestCurrency, testCurrency } from "../wallet/test-money";
import { RpcError } from "./rpc-error";

/** Where versions before schema v3 kept the policy (readable by content scripts): read as stored, checked on the move. */
export const LEGACY_POLICY_ITEM = storageItem<unknown>(
  STORAGE_KEYS.legacyPolicy,
  (stored) => stored,
);

const micro = z.string().regex(/^\d{1,30}$/, "must be a whole number of micro units");
const budgetSchema = z.object({
  currency: z.string().min(1).max(16),
  amount: micro,
  period: z.enum(["day", "week", "month", "none"]),
  autoApproveUpTo: micro,
  perCallMax: micro,
  withinPriceHint: z.boolean().optional(),
});
/** A policy as the settings page sends it (amounts as decimal strings of micro units). */
export const policySchema = z.object({
  globalCaps: z.record(z.string(), z.object({ day: micro.optional(), month: micro.optional() })),
  origins: z.record(
    z
      .string()
      .refine(
        canHoldBudget,
        "must be an https origin (plain http only for loopback addresses), or proxy:<such an origin> for a desktop app's proxy",
      ),
    budgetSchema,
  ),
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
  rpcEndpoints: z
    .record(
      z.string().regex(/^eip155:\d+$/),
      z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2048),
    )
    .optional(),
  revision: z.int().min(0).optional(),
});

/**
 * First-run policy: small global caps, every known network and stablecoin, and
 * no budget for any site — so nothing is auto-approved until the person says so.
 */
export function defaultPolicy(): PolicyView {
  return {
    // Test money (testnet tokens) has caps of its own; it never uses up the real ones.
    globalCaps: {
      USD: { day: "5000000", month: "50000000" },
      [testCurrency("USD")]: { day: "5000000", month: "50000000" },
    },
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
    const detail = `${issue?.path.join(".") || "(root)"} ${issue?.message ?? ""}`.trim();
    throw new RpcError(ErrorCode.InvalidParams, `Invalid settings: ${detail}`, {
      reason: "invalid-policy",
    });
  }
  return parsed.data as PolicyView;
}

/**
 * A policy as stored, possibly by an older version: site budgets that can no
 * longer be held (plain-http origins outside loopback) are dropped, not fatal,
 * so the rest of the person's settings keep working.
 */
function readStoredPolicy(value: unknown): PolicyView {
  if (typeof value !== "object" || value === null || !("origins" in value)) {
    return parsePolicyView(value);
  }
  const origins = (value as { origins: unknown }).origins;
  if (typeof origins !== "object" || origins === null) return parsePolicyView(value);
  return parsePolicyView({
    ...value,
    origins: Object.fromEntries(
      Object.entries(origins).filter(([origin]) => canHoldBudget(origin)),
    ),
  });
}

/**
 * A policy from before test money counted apart gets test caps as large as its
 * real ones, so test money is not left without caps after the move.
 */
function withTestCaps(view: PolicyView): PolicyView {
  const globalCaps = { ...view.globalCaps };
  for (const [currency, caps] of Object.entries(view.globalCaps)) {
    if (!isTestCurrency(currency)) globalCaps[testCurrency(currency)] ??= { ...caps };
  }
  return { ...view, globalCaps };
}

export function toSettings(view: PolicyView): PolicySettings {
  const budget = (b: OriginBudgetView) => ({
    currency: b.currency,
    amount: BigInt(b.amount),
    period: b.period,
    autoApproveUpTo: BigInt(b.autoApproveUpTo),
    perCallMax: BigInt(b.perCallMax),
    ...(b.withinPriceHint ? { withinPriceHint: true } : {}),
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

/** The parts of a policy the payment settings do not hold: kept as they are through a change. */
type Unpriced = Pick<PolicyView, "trustedRegistries" | "rpcEndpoints">;

export function toView(settings: PolicySettings, kept: Unpriced): PolicyView {
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
          ...(b.withinPriceHint ? { withinPriceHint: true } : {}),
        },
      ]),
    ),
    receivers: { allow: [...settings.receivers.allow], deny: [...settings.receivers.deny] },
    networks: [...settings.networks],
    assets: settings.assets.map((a) => ({ ...a })),
    trustedRegistries: kept.trustedRegistries,
    ...(kept.rpcEndpoints ? { rpcEndpoints: { ...kept.rpcEndpoints } } : {}),
  };
}

/**
 * The person's policy, in the wallet's own IndexedDB (see SettingsEntry). Every
 * change is one read-modify-write transaction in the background, so two changes
 * never undo each other. A policy an older version kept in storage.local is
 * moved over on first read and removed from there.
 */
export class PolicyStore {
  /**
   * The policy as last read or written by this worker: only the background
   * writes it, through this store, so the copy stays true until the worker
   * stops (a new worker reads it afresh). Callers must not mutate it.
   */
  private current: { view: PolicyView; settings: PolicySettings } | undefined;

  constructor(
    private readonly db: WalletDb,
    private readonly legacyLocal?: KeyValueStore,
  ) {}

  async view(): Promise<PolicyView> {
    return (await this.read()).view;
  }

  async settings(): Promise<PolicySettings> {
    return (await this.read()).settings;
  }

  private async read(): Promise<{ view: PolicyView; settings: PolicySettings }> {
    if (this.current) return this.current;
    const entry = await this.entry();
    return this.keep({ ...readStoredPolicy(entry.value), revision: entry.revision });
  }

  private keep(view: PolicyView): { view: PolicyView; settings: PolicySettings } {
    this.current = { view, settings: toSettings(view) };
    return this.current;
  }

  /** Replaces the policy with what a settings page sent, unless it read an older revision. */
  async save(view: unknown): Promise<PolicyView> {
    const checked = parsePolicyView(view);
    return this.write((_current, revision) => {
      if (checked.revision !== undefined && checked.revision !== revision) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Your settings changed since this page read them (revision ${checked.revision}, now ${revision}): reload them and make your change again`,
          { reason: "stale-policy" },
        );
      }
      return checked;
    });
  }

  /** Changes the settings as they are now, in one transaction (e.g. "always allow" for a site). */
  async update(change: (settings: PolicySettings) => PolicySettings): Promise<PolicySettings> {
    const saved = await this.write((current) => toView(change(toSettings(current)), current));
    return toSettings(saved);
  }

  private async write(
    change: (current: PolicyView, revision: number) => PolicyView,
  ): Promise<PolicyView> {
    await this.entry();
    const saved = await this.db.transaction("rw", this.db.settings, async () => {
      const stored = await this.db.settings.get("policy");
      const revision = stored?.revision ?? 0;
      const { revision: _read, ...next } = parsePolicyView(
        change(readStoredPolicy(stored?.value ?? defaultPolicy()), revision),
      );
      await this.db.settings.put({ key: "policy", value: next, revision: revision + 1 });
      return { ...next, revision: revision + 1 };
    });
    this.keep(saved);
    return saved;
  }

  /** The stored entry, moving a storage.local policy over (or the defaults) the first time. */
  private async entry(): Promise<SettingsEntry> {
    const stored = await this.db.settings.get("policy");
    if (stored) return stored;
    const legacy = this.legacyLocal && (await readItem(this.legacyLocal, LEGACY_POLICY_ITEM));
    const value = legacy === undefined ? defaultPolicy() : withTestCaps(readStoredPolicy(legacy));
    const created: SettingsEntry = { key: "policy", value, revision: 0 };
    await this.db.settings.add(created).catch(async (error: unknown) => {
      // Another caller created it first: theirs stands.
      if (!(error instanceof Dexie.ConstraintError)) throw error;
    });
    if (this.legacyLocal) await removeItem(this.legacyLocal, LEGACY_POLICY_ITEM);
    return (await this.db.settings.get("policy")) ?? created;
  }
}
