import { useEffect, useState } from "react";
import { errorText } from "@/lib/errors";
import type { PolicyView, WalletState } from "@/lib/messages";
import { callWallet } from "@/lib/ui/client";
import { t } from "@/lib/ui/i18n";
import { Button, ErrorNote } from "../shared/controls";
import { Shell } from "../shared/Shell";
import { WalletGate, WalletIdentity } from "../shared/WalletGate";
import { HistoryPanel } from "./HistoryPanel";
import { SettingsView } from "./SettingsView";

/** The policy, and what each budgeted site spent this period. */
async function loadSettings(): Promise<{ policy: PolicyView; spent: Record<string, string> }> {
  const policy = await callWallet({ method: "ui_getPolicy", params: undefined });
  const spent = await Promise.all(
    Object.keys(policy.origins).map(async (origin) => {
      const summaries = await callWallet({ method: "ui_getSpend", params: { origin } });
      // One summary per currency: the budget's own currency holds what the site spent of it.
      const own = summaries.find((s) => s.currency === policy.origins[origin]?.currency);
      return [origin, own?.origin?.spent ?? "0"] as const;
    }),
  );
  return { policy, spent: Object.fromEntries(spent) };
}

const TABS = ["history", "settings"] as const;
type Tab = (typeof TABS)[number];

/** The tab an arrow key (or Home, End) moves to from `from`, round the ends; undefined for other keys. */
export function tabMovedTo(key: string, from: Tab): Tab | undefined {
  const at = TABS.indexOf(from);
  const to =
    key === "ArrowRight"
      ? at + 1
      : key === "ArrowLeft"
        ? at - 1
        : key === "Home"
          ? 0
          : key === "End"
            ? TABS.length - 1
            : undefined;
  return to === undefined ? undefined : TABS[(to + TABS.length) % TABS.length];
}

function SettingsPanel({ wallet }: { wallet: WalletState }) {
  const [loaded, setLoaded] = useState<{ policy: PolicyView; spent: Record<string, string> }>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    loadSettings().then(setLoaded, (e: unknown) => setError(errorText(e)));
  }, []);
  if (error) return <ErrorNote>{error}</ErrorNote>;
  if (!loaded) return <p aria-busy="true">{t("options.loadingSettings")}</p>;
  return (
    <SettingsView
      policy={loaded.policy}
      spent={loaded.spent}
      autoLockMinutes={wallet.autoLockMinutes}
      actions={{
        save: async (next, minutes) => {
          const policy = await callWallet({ method: "ui_setPolicy", params: next });
          setLoaded({ ...loaded, policy });
          await callWallet({ method: "ui_setAutoLock", params: { minutes } });
        },
        changePassword: async (oldPassword, newPassword) => {
          await callWallet({ method: "ui_changePassword", params: { oldPassword, newPassword } });
        },
        exportKey: async (password) =>
          (await callWallet({ method: "ui_exportKey", params: { password } })).privateKey,
        deleteHistory: () => callWallet({ method: "ui_deleteHistory", params: { confirm: true } }),
      }}
    />
  );
}

/** The options page: payment history and settings, as two tabs. */
export function HistoryView() {
  const [tab, setTab] = useState<Tab>("history");
  return (
    <Shell title={t("options.title")}>
      <WalletGate>
        {(wallet, lock) => (
          <div className="mx-auto flex max-w-5xl flex-col gap-4">
            <div className="flex items-start justify-between gap-4">
              <details className="text-xs">
                <summary className="cursor-pointer">{t("common.details")}</summary>
                <WalletIdentity wallet={wallet} />
              </details>
              <Button onClick={lock}>{t("common.lock")}</Button>
            </div>
            <div
              role="tablist"
              aria-label={t("options.sections")}
              className="flex gap-2"
              onKeyDown={(event) => {
                // The tabs pattern: one Tab stop, the arrow keys (and Home, End) move between tabs.
                const next = tabMovedTo(event.key, tab);
                if (next === undefined) return;
                event.preventDefault();
                setTab(next);
                document.getElementById(`tab-${next}`)?.focus();
              }}
            >
              {TABS.map((name) => (
                <Button
                  key={name}
                  role="tab"
                  aria-selected={tab === name}
                  tabIndex={tab === name ? 0 : -1}
                  {...(tab === name ? { "aria-controls": `panel-${name}` } : {})}
                  id={`tab-${name}`}
                  variant={tab === name ? "primary" : "secondary"}
                  onClick={() => setTab(name)}
                >
                  {name === "history" ? t("options.history") : t("options.settings")}
                </Button>
              ))}
            </div>
            <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
              {tab === "history" ? <HistoryPanel /> : <SettingsPanel wallet={wallet} />}
            </div>
          </div>
        )}
      </WalletGate>
    </Shell>
  );
}
