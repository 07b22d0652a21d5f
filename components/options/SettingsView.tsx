import { type ReactNode, useState } from "react";
import type { PolicyView } from "@/lib/messages";
import { errorText } from "@/lib/ui/error-text";
import { fromPolicyForm, type PolicyForm, toPolicyForm } from "@/lib/ui/policy-form";
import { Button, ErrorNote, Field, INPUT_CLASS } from "../shared/controls";

export interface SettingsActions {
  save(policy: PolicyView, autoLockMinutes: number): Promise<void>;
  changePassword(oldPassword: string, newPassword: string): Promise<void>;
  exportKey(password: string): Promise<string>;
  deleteHistory(): Promise<number>;
}

function Cell(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  wide?: boolean;
}) {
  return (
    <input
      aria-label={props.label}
      className={`${props.wide ? "w-56" : "w-24"} ${INPUT_CLASS}`}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-2 rounded border border-slate-200 p-3 dark:border-slate-800">
      <legend className="px-1 font-semibold">{title}</legend>
      {children}
    </fieldset>
  );
}

function Lines(props: { label: string; value: string; onChange(value: string): void }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      {props.label}
      <textarea
        rows={3}
        className={`font-mono ${INPUT_CLASS}`}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}

/** Budgets, caps, networks, assets, registries, auto-lock, password, key export, history deletion. */
export function SettingsView({
  policy,
  autoLockMinutes,
  actions,
}: {
  policy: PolicyView;
  autoLockMinutes: number;
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
  const [confirmDelete, setConfirmDelete] = useState(false);

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
  const editRow = <K extends "caps" | "origins" | "assets" | "registries">(
    key: K,
    index: number,
    value: Partial<PolicyForm[K][number]>,
  ) => patch({ [key]: form[key].map((row, i) => (i === index ? { ...row, ...value } : row)) });
  const removeRow = (key: "caps" | "origins" | "assets" | "registries", index: number) =>
    patch({ [key]: form[key].filter((_, i) => i !== index) });

  const save = () =>
    run(async () => {
      const minutes = Number(autoLock);
      if (!Number.isInteger(minutes) || minutes < 1)
        throw new Error(`Auto-lock must be whole minutes, got "${autoLock}"`);
      // The revision read: a change saved meanwhile (e.g. "always allow") is not silently undone.
      await actions.save({ ...fromPolicyForm(form), revision: policy.revision }, minutes);
      return "Settings saved.";
    });

  return (
    <div className="flex flex-col gap-4">
      <Section title="Global caps">
        {form.caps.map((cap, i) => (
          <div key={`cap-${i.toString()}`} className="flex flex-wrap items-center gap-2 text-sm">
            <Cell
              label="Cap currency"
              value={cap.currency}
              onChange={(currency) => editRow("caps", i, { currency })}
            />
            <Cell
              label={`Daily cap (${cap.currency})`}
              value={cap.day}
              onChange={(day) => editRow("caps", i, { day })}
            />
            <Cell
              label={`Monthly cap (${cap.currency})`}
              value={cap.month}
              onChange={(month) => editRow("caps", i, { month })}
            />
            <Button onClick={() => removeRow("caps", i)}>Remove cap {cap.currency}</Button>
          </div>
        ))}
        <Button
          onClick={() => patch({ caps: [...form.caps, { currency: "USD", day: "", month: "" }] })}
        >
          Add cap
        </Button>
      </Section>
      <Section title="Site budgets">
        {form.origins.length === 0 && <p className="text-sm">No site may pay without asking.</p>}
        {form.origins.map((o, i) => (
          <div key={`origin-${i.toString()}`} className="flex flex-wrap items-center gap-2 text-sm">
            <Cell
              wide
              label="Site origin"
              value={o.origin}
              onChange={(origin) => editRow("origins", i, { origin })}
            />
            <Cell
              label={`Currency for ${o.origin}`}
              value={o.currency}
              onChange={(currency) => editRow("origins", i, { currency })}
            />
            <Cell
              label={`Budget for ${o.origin}`}
              value={o.amount}
              onChange={(amount) => editRow("origins", i, { amount })}
            />
            <select
              aria-label={`Renewal period for ${o.origin}`}
              className={INPUT_CLASS}
              value={o.period}
              onChange={(e) => editRow("origins", i, { period: e.target.value as typeof o.period })}
            >
              <option value="day">per day</option>
              <option value="week">per week</option>
              <option value="month">per month</option>
              <option value="none">never renews</option>
            </select>
            <Cell
              label={`Auto-approve for ${o.origin}`}
              value={o.autoApproveUpTo}
              onChange={(autoApproveUpTo) => editRow("origins", i, { autoApproveUpTo })}
            />
            <Cell
              label={`Per-call maximum for ${o.origin}`}
              value={o.perCallMax}
              onChange={(perCallMax) => editRow("origins", i, { perCallMax })}
            />
            <label className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={o.withinPriceHint}
                onChange={(e) => editRow("origins", i, { withinPriceHint: e.target.checked })}
              />
              only at or below the tool's announced price
            </label>
            <Button onClick={() => removeRow("origins", i)}>Remove {o.origin || "site"}</Button>
          </div>
        ))}
        <Button
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
          Add site
        </Button>
      </Section>
      <Section title="Networks and assets">
        <Lines
          label="Allowed networks (one per line)"
          value={form.networks}
          onChange={(networks) => patch({ networks })}
        />
        {form.assets.map((a, i) => (
          <div key={`asset-${i.toString()}`} className="flex flex-wrap items-center gap-2 text-sm">
            <Cell
              label="Asset network"
              value={a.network}
              onChange={(network) => editRow("assets", i, { network })}
            />
            <Cell
              wide
              label="Asset address"
              value={a.asset}
              onChange={(asset) => editRow("assets", i, { asset })}
            />
            <Cell
              label="Asset decimals"
              value={a.decimals}
              onChange={(decimals) => editRow("assets", i, { decimals })}
            />
            <Cell
              label="Asset symbol"
              value={a.symbol}
              onChange={(symbol) => editRow("assets", i, { symbol })}
            />
            <Cell
              label="Asset currency"
              value={a.currency}
              onChange={(currency) => editRow("assets", i, { currency })}
            />
            <Button onClick={() => removeRow("assets", i)}>Remove {a.symbol || "asset"}</Button>
          </div>
        ))}
        <Button
          onClick={() =>
            patch({
              assets: [
                ...form.assets,
                { network: "", asset: "", decimals: "6", symbol: "", currency: "USD" },
              ],
            })
          }
        >
          Add asset
        </Button>
      </Section>
      <Section title="Receivers">
        <Lines
          label="Always ask unless listed (allow list)"
          value={form.allow}
          onChange={(allow) => patch({ allow })}
        />
        <Lines
          label="Never pay (deny list)"
          value={form.deny}
          onChange={(deny) => patch({ deny })}
        />
      </Section>
      <Section title="Trust registries">
        {form.registries.map((r, i) => (
          <div
            key={`registry-${i.toString()}`}
            className="flex flex-wrap items-center gap-2 text-sm"
          >
            <Cell
              label="Registry name"
              value={r.name}
              onChange={(name) => editRow("registries", i, { name })}
            />
            <Cell
              wide
              label="Registry URL"
              value={r.url}
              onChange={(url) => editRow("registries", i, { url })}
            />
            <Cell
              wide
              label="Registry key (JWK)"
              value={r.jwk}
              onChange={(jwk) => editRow("registries", i, { jwk })}
            />
            <Button onClick={() => removeRow("registries", i)}>
              Remove {r.name || "registry"}
            </Button>
          </div>
        ))}
        <Button
          onClick={() =>
            patch({ registries: [...form.registries, { name: "", url: "", jwk: "{}" }] })
          }
        >
          Add registry
        </Button>
      </Section>
      <Field
        label="Auto-lock after (minutes)"
        type="number"
        min={1}
        value={autoLock}
        onChange={(e) => setAutoLock(e.target.value)}
        className="w-48"
      />
      <ErrorNote>{error}</ErrorNote>
      {note && <p role="status">{note}</p>}
      <Button variant="primary" onClick={() => void save()} className="self-start">
        Save
      </Button>

      <Section title="Password">
        <Field
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={oldPassword}
          onChange={(e) => setOldPassword(e.target.value)}
        />
        <Field
          label="New password"
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
              return "Password changed.";
            })
          }
        >
          Change password
        </Button>
      </Section>
      <Section title="Export key">
        <Field
          label="Password to export the key"
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
              return "Key exported: keep it secret.";
            })
          }
        >
          Export key
        </Button>
        {exportedKey && (
          <output className="font-mono text-xs break-all" data-testid="exported-key">
            {exportedKey}
          </output>
        )}
      </Section>
      <Section title="History">
        <Button variant="danger" className="self-start" onClick={() => setConfirmDelete(true)}>
          Delete history
        </Button>
        {confirmDelete && (
          <div
            role="alertdialog"
            aria-label="Confirm deleting the history"
            className="flex flex-col gap-2"
          >
            <p>
              Delete every payment record? Budgets already spent stay spent. This cannot be undone.
            </p>
            <div className="flex gap-2">
              <Button
                variant="danger"
                onClick={() =>
                  void run(async () => {
                    const deleted = await actions.deleteHistory();
                    setConfirmDelete(false);
                    return `Deleted ${deleted} payments.`;
                  })
                }
              >
                Yes, delete all payments
              </Button>
              <Button onClick={() => setConfirmDelete(false)}>Cancel</Button>
            </div>
          </div>
        )}
      </Section>
    </div>
  );
}
