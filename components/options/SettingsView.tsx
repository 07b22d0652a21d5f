import { type ReactNode, useState } from "react";
import { errorText } from "@/lib/errors";
import type { PolicyView } from "@/lib/messages";
import { NETWORKS, networkLabel } from "@/lib/protocol/rails/networks";
import { UiError } from "@/lib/ui/errors";
import { t } from "@/lib/ui/i18n";
import { formatCount } from "@/lib/ui/locale-format";
import { showMicro } from "@/lib/ui/money";
import { receiverWords } from "@/lib/ui/payment-words";
import {
  type AssetRow,
  type CapRow,
  fromPolicyForm,
  type OriginRow,
  type PolicyForm,
  type RegistryRow,
  toPolicyForm,
} from "@/lib/ui/policy-form";
import { Button, ErrorNote, Field, FOCUS, SelectField } from "../shared/controls";
import { DeleteHistory } from "./DeleteHistory";
import { type FieldSpec, FieldTable } from "./FieldTable";
import { ThemeSetting } from "./ThemeSetting";

export interface SettingsActions {
  save(policy: PolicyView, autoLockMinutes: number): Promise<void>;
  changePassword(oldPassword: string, newPassword: string): Promise<void>;
  exportKey(password: string): Promise<string>;
  /** Deletes finished payments; those still being settled or whose Quote is still valid are kept. */
  deleteHistory(): Promise<{ deleted: number; kept: number }>;
}

function Section({
  id,
  title,
  explain,
  children,
}: {
  id: string;
  title: string;
  explain?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={`settings-${id}`}
      className="flex flex-col gap-2 rounded border border-slate-200 p-3 dark:border-slate-800"
    >
      <h2 id={`settings-${id}`} className="font-semibold">
        {title}
      </h2>
      {explain && <p className="text-sm text-slate-600 dark:text-slate-400">{explain}</p>}
      {children}
    </section>
  );
}

const CAP_FIELDS: FieldSpec<CapRow>[] = [
  {
    kind: "text",
    key: "currency",
    head: () => t("settings.caps.currency"),
    label: () => t("settings.caps.currencyLabel"),
  },
  {
    kind: "text",
    key: "day",
    head: () => t("settings.caps.perDay"),
    label: (r) => t("settings.caps.day", [r.currency]),
  },
  {
    kind: "text",
    key: "month",
    head: () => t("settings.caps.perMonth"),
    label: (r) => t("settings.caps.month", [r.currency]),
  },
];

const PERIODS = [
  { value: "day", label: () => t("settings.sites.day") },
  { value: "week", label: () => t("settings.sites.week") },
  { value: "month", label: () => t("settings.sites.month") },
  { value: "none", label: () => t("settings.sites.none_period") },
];

const ORIGIN_FIELDS: FieldSpec<OriginRow>[] = [
  {
    kind: "text",
    key: "origin",
    head: () => t("settings.sites.site"),
    label: () => t("settings.sites.origin"),
    wide: true,
  },
  {
    kind: "text",
    key: "amount",
    head: () => t("settings.sites.budget"),
    label: (r) => t("settings.sites.budgetFor", [r.origin]),
  },
  {
    kind: "text",
    key: "currency",
    head: () => t("settings.caps.currency"),
    label: (r) => t("settings.sites.currencyFor", [r.origin]),
  },
  {
    kind: "select",
    key: "period",
    head: () => t("settings.sites.period"),
    label: (r) => t("settings.sites.periodFor", [r.origin]),
    options: PERIODS,
  },
  {
    kind: "text",
    key: "autoApproveUpTo",
    head: () => t("settings.sites.auto"),
    label: (r) => t("settings.sites.autoFor", [r.origin]),
  },
  {
    kind: "text",
    key: "perCallMax",
    head: () => t("settings.sites.perCall"),
    label: (r) => t("settings.sites.perCallFor", [r.origin]),
  },
  {
    kind: "checkbox",
    key: "withinPriceHint",
    head: () => t("settings.sites.hint"),
    label: (r) => t("settings.sites.hintFor", [r.origin]),
  },
];

const REGISTRY_FIELDS: FieldSpec<RegistryRow>[] = [
  {
    kind: "text",
    key: "name",
    head: () => t("settings.registries.name"),
    label: () => t("settings.registries.name"),
  },
  {
    kind: "text",
    key: "url",
    head: () => t("settings.registries.url"),
    label: () => t("settings.registries.url"),
    wide: true,
  },
  {
    kind: "text",
    key: "jwk",
    head: () => t("settings.registries.jwk"),
    label: () => t("settings.registries.jwk"),
    wide: true,
  },
];

const CUSTOM_TOKEN_FIELDS: { key: Exclude<keyof AssetRow, "network">; label(): string }[] = [
  { key: "asset", label: () => t("settings.tokens.customAddress") },
  { key: "symbol", label: () => t("settings.tokens.customSymbol") },
  { key: "decimals", label: () => t("settings.tokens.customDecimals") },
  { key: "currency", label: () => t("settings.tokens.customCurrency") },
];

function NetworkSwitches({
  enabled,
  onChange,
}: {
  enabled: string[];
  onChange(networks: string[]): void;
}) {
  return (
    <ul className="flex flex-col gap-1 text-sm" aria-label={t("settings.networks.title")}>
      {NETWORKS.map((network) => {
        const on = enabled.includes(network.caip2);
        return (
          <li key={network.caip2} className="flex items-center gap-2">
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                role="switch"
                aria-checked={on}
                checked={on}
                aria-label={t("settings.networks.payOn", [network.label])}
                onChange={(e) =>
                  onChange(
                    e.target.checked
                      ? [...enabled, network.caip2]
                      : enabled.filter((id) => id !== network.caip2),
                  )
                }
              />
              {network.label}
            </label>
            <span
              className={`rounded px-1.5 text-xs ${
                network.testnet
                  ? "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200"
                  : "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
              }`}
            >
              {network.testnet ? t("common.testnet") : t("common.mainnet")}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function Tokens({ assets, onAdd }: { assets: AssetRow[]; onAdd(asset: AssetRow): void }) {
  const blank: AssetRow = {
    network: NETWORKS[0]?.caip2 ?? "",
    asset: "",
    decimals: "6",
    symbol: "",
    currency: "USD",
  };
  const [draft, setDraft] = useState<AssetRow>(blank);
  return (
    <>
      <table className="text-sm" aria-label={t("settings.tokens.title")}>
        <thead>
          <tr className="text-left">
            <th scope="col" className="pr-3">
              {t("settings.tokens.token")}
            </th>
            <th scope="col" className="pr-3">
              {t("settings.tokens.network")}
            </th>
            <th scope="col" className="pr-3">
              {t("settings.tokens.contract")}
            </th>
            <th scope="col">{t("settings.tokens.currency")}</th>
          </tr>
        </thead>
        <tbody>
          {assets.map((a) => (
            <tr key={`${a.network} ${a.asset}`} data-testid="token-row">
              <td className="pr-3 font-medium">{a.symbol}</td>
              <td className="pr-3">{networkLabel(a.network)}</td>
              <td className="pr-3 font-mono text-xs break-all">{a.asset}</td>
              <td>{a.currency}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <details className="text-sm">
        <summary className="cursor-pointer font-medium">{t("settings.tokens.advanced")}</summary>
        <div className="mt-2 flex flex-col gap-2">
          <h3 className="font-medium">{t("settings.tokens.addCustom")}</h3>
          <SelectField
            label={t("settings.tokens.customNetwork")}
            value={draft.network}
            onChange={(e) => setDraft({ ...draft, network: e.target.value })}
          >
            {NETWORKS.map((n) => (
              <option key={n.caip2} value={n.caip2}>
                {n.label}
              </option>
            ))}
          </SelectField>
          {CUSTOM_TOKEN_FIELDS.map((field) => (
            <Field
              key={field.key}
              label={field.label()}
              value={draft[field.key]}
              onChange={(e) => setDraft({ ...draft, [field.key]: e.target.value })}
            />
          ))}
          <Button
            className="self-start"
            onClick={() => {
              onAdd(draft);
              setDraft(blank);
            }}
          >
            {t("settings.tokens.add")}
          </Button>
        </div>
      </details>
    </>
  );
}

function ReceiverList({
  title,
  none,
  addLabel,
  addText,
  entries,
  onChange,
}: {
  title: string;
  none: string;
  addLabel: string;
  addText: string;
  entries: string[];
  onChange(entries: string[]): void;
}) {
  const [draft, setDraft] = useState("");
  return (
    <div className="flex flex-col gap-1 text-sm">
      <h3 className="font-medium">{title}</h3>
      {entries.length === 0 && <p>{none}</p>}
      <ul aria-label={title}>
        {entries.map((entry) => (
          <li key={entry} className="flex items-center gap-2">
            <span title={entry}>{receiverWords(entry)}</span>
            <button
              type="button"
              className={`${FOCUS} rounded px-1 text-xs text-red-700 underline dark:text-red-300`}
              aria-label={t("settings.receivers.remove", [entry])}
              onClick={() => onChange(entries.filter((e) => e !== entry))}
            >
              {t("common.remove")}
            </button>
          </li>
        ))}
      </ul>
      <div className="flex items-end gap-2">
        <Field label={addLabel} value={draft} onChange={(e) => setDraft(e.target.value)} />
        <Button
          disabled={draft.trim() === ""}
          onClick={() => {
            onChange([...entries, draft.trim()]);
            setDraft("");
          }}
        >
          {addText}
        </Button>
      </div>
    </div>
  );
}

/** Budgets, caps, networks, tokens, receivers, registries, auto-lock, password, key export, history deletion. */
export function SettingsView({
  policy,
  autoLockMinutes,
  spent = {},
  actions,
}: {
  policy: PolicyView;
  autoLockMinutes: number;
  /** What each site spent this period, in micro units, by origin. */
  spent?: Record<string, string>;
  actions: SettingsActions;
}) {
  const [form, setForm] = useState<PolicyForm>(() => toPolicyForm(policy));
  const [autoLock, setAutoLock] = useState(String(autoLockMinutes));
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<string>();
  const [oldPassword, setOldPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [exportPassword, setExportPassword] = useState("");
  const [exportedKey, setExportedKey] = useState<string>();

  const run = async (action: () => Promise<string>) => {
    setError(undefined);
    setNote(undefined);
    try {
      setNote(await action());
    } catch (e) {
      setError(errorText(e));
    }
  };
  const patch = (next: Partial<PolicyForm>) => setForm({ ...form, ...next });
  const editRow =
    <K extends "caps" | "origins" | "registries">(key: K) =>
    (index: number, value: Partial<PolicyForm[K][number]>) =>
      patch({ [key]: form[key].map((row, i) => (i === index ? { ...row, ...value } : row)) });
  const removeRow = (key: "caps" | "origins" | "registries") => (index: number) =>
    patch({ [key]: form[key].filter((_, i) => i !== index) });

  const save = () =>
    run(async () => {
      const minutes = Number(autoLock);
      if (!Number.isInteger(minutes) || minutes < 1)
        throw new UiError("invalid-auto-lock-input", t("settings.autoLockWhole", [autoLock]));
      // The revision read: a change saved meanwhile (e.g. "always allow") is not silently undone.
      await actions.save({ ...fromPolicyForm(form), revision: policy.revision }, minutes);
      return t("settings.saved");
    });

  return (
    <div className="flex flex-col gap-4">
      <Section id="caps" title={t("settings.caps.title")} explain={t("settings.caps.explain")}>
        <FieldTable
          caption={t("settings.caps.title")}
          fields={CAP_FIELDS}
          rows={form.caps}
          rowKey={(_, i) => `cap-${i}`}
          onChange={editRow("caps")}
          remove={{
            label: (r) => t("settings.caps.remove", [r.currency]),
            text: () => t("common.remove"),
            onRemove: removeRow("caps"),
          }}
        />
        <Button
          className="self-start"
          onClick={() => patch({ caps: [...form.caps, { currency: "USD", day: "", month: "" }] })}
        >
          {t("settings.caps.add")}
        </Button>
      </Section>
      <Section id="sites" title={t("settings.sites.title")} explain={t("settings.sites.explain")}>
        {form.origins.length === 0 && <p className="text-sm">{t("settings.sites.none")}</p>}
        {form.origins.length > 0 && (
          <FieldTable
            caption={t("settings.sites.title")}
            fields={ORIGIN_FIELDS}
            rows={form.origins}
            rowKey={(_, i) => `origin-${i}`}
            onChange={editRow("origins")}
            extra={[
              {
                head: () => t("settings.sites.spent"),
                cell: (r) => {
                  const amount = spent[r.origin];
                  return amount === undefined ? "—" : showMicro(amount, r.currency);
                },
              },
            ]}
            remove={{
              label: (r) => t("settings.sites.remove", [r.origin || t("settings.sites.site")]),
              text: () => t("common.remove"),
              onRemove: removeRow("origins"),
            }}
          />
        )}
        <Button
          className="self-start"
          onClick={() =>
            patch({
              origins: [
                ...form.origins,
                {
                  origin: "",
                  currency: "USD",
                  amount: "1",
                  period: "day",
                  autoApproveUpTo: "0",
                  perCallMax: "1",
                  withinPriceHint: false,
                },
              ],
            })
          }
        >
          {t("settings.sites.add")}
        </Button>
      </Section>
      <Section
        id="networks"
        title={t("settings.networks.title")}
        explain={t("settings.networks.explain")}
      >
        <NetworkSwitches enabled={form.networks} onChange={(networks) => patch({ networks })} />
      </Section>
      <Section id="tokens" title={t("settings.tokens.title")}>
        <Tokens
          assets={form.assets}
          onAdd={(asset) => patch({ assets: [...form.assets, asset] })}
        />
      </Section>
      <Section
        id="receivers"
        title={t("settings.receivers.title")}
        explain={t("settings.receivers.explain")}
      >
        <ReceiverList
          title={t("settings.receivers.allowTitle")}
          none={t("settings.receivers.allowNone")}
          addLabel={t("settings.receivers.allowAdd")}
          addText={t("settings.receivers.addAllow")}
          entries={form.allow}
          onChange={(allow) => patch({ allow })}
        />
        <ReceiverList
          title={t("settings.receivers.denyTitle")}
          none={t("settings.receivers.denyNone")}
          addLabel={t("settings.receivers.denyAdd")}
          addText={t("settings.receivers.addDeny")}
          entries={form.deny}
          onChange={(deny) => patch({ deny })}
        />
      </Section>
      <Section id="registries" title={t("settings.registries.title")}>
        <FieldTable
          caption={t("settings.registries.title")}
          fields={REGISTRY_FIELDS}
          rows={form.registries}
          rowKey={(_, i) => `registry-${i}`}
          onChange={editRow("registries")}
          remove={{
            label: (r) =>
              t("settings.registries.remove", [r.name || t("settings.registries.name")]),
            text: () => t("common.remove"),
            onRemove: removeRow("registries"),
          }}
        />
        <Button
          className="self-start"
          onClick={() =>
            patch({ registries: [...form.registries, { name: "", url: "", jwk: "{}" }] })
          }
        >
          {t("settings.registries.add")}
        </Button>
      </Section>
      <Field
        label={t("settings.autoLock")}
        type="number"
        min={1}
        value={autoLock}
        onChange={(e) => setAutoLock(e.target.value)}
        className="w-48"
      />
      <ErrorNote>{error}</ErrorNote>
      {note && <p role="status">{note}</p>}
      <Button variant="primary" onClick={() => void save()} className="self-start">
        {t("common.save")}
      </Button>

      <Section
        id="appearance"
        title={t("settings.appearance.title")}
        explain={t("settings.appearance.explain")}
      >
        <ThemeSetting />
      </Section>

      <Section id="password" title={t("settings.password.title")}>
        <Field
          label={t("settings.password.current")}
          type="password"
          autoComplete="current-password"
          value={oldPassword}
          onChange={(e) => setOldPassword(e.target.value)}
        />
        <Field
          label={t("settings.password.new")}
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
        />
        <Button
          className="self-start"
          disabled={!oldPassword || newPassword.length < 8}
          onClick={() =>
            void run(async () => {
              await actions.changePassword(oldPassword, newPassword);
              setOldPassword("");
              setNewPassword("");
              return t("settings.password.changed");
            })
          }
        >
          {t("settings.password.change")}
        </Button>
      </Section>
      <Section id="export" title={t("settings.export.title")}>
        <Field
          label={t("settings.export.password")}
          type="password"
          autoComplete="current-password"
          value={exportPassword}
          onChange={(e) => setExportPassword(e.target.value)}
        />
        <Button
          className="self-start"
          disabled={!exportPassword}
          onClick={() =>
            void run(async () => {
              setExportedKey(await actions.exportKey(exportPassword));
              setExportPassword("");
              return t("settings.export.done");
            })
          }
        >
          {t("settings.export.button")}
        </Button>
        {exportedKey && (
          <output className="font-mono text-xs break-all" data-testid="exported-key">
            {exportedKey}
          </output>
        )}
      </Section>
      <Section id="history" title={t("settings.history.title")}>
        <DeleteHistory
          onDelete={(answered) =>
            run(async () => {
              const { deleted, kept } = await actions.deleteHistory();
              answered();
              const done = t("settings.history.deleted", deleted, [formatCount(deleted)]);
              return kept === 0
                ? done
                : t("settings.history.deletedKept", [
                    done,
                    t("settings.history.kept", kept, [formatCount(kept)]),
                  ]);
            })
          }
        />
      </Section>
    </div>
  );
}
