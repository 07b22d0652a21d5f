import { useEffect, useState } from "react";
import type { PolicyView, WalletState } from "@/lib/messages";
import { callWallet } from "@/lib/ui/client";
import { errorText } from "@/lib/ui/error-text";
import { Button, ErrorNote } from "../shared/controls";
import { Shell } from "../shared/Shell";
import { WalletGate, WalletIdentity } from "../shared/WalletGate";
import { HistoryPanel } from "./HistoryPanel";
import { SettingsView } from "./SettingsView";

function SettingsPanel({ wallet }: { wallet: WalletState }) {
  const [policy, setPolicy] = useState<PolicyView>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    callWallet({ method: "ui_getPolicy", params: undefined }).then(setPolicy, (e: unknown) =>
      setError(errorText(e)),
    );
  }, []);
  if (error) return <ErrorNote>{error}</ErrorNote>;
  if (!policy) return <p aria-busy="true">Loading settings…</p>;
  return (
    <SettingsView
      policy={policy}
      autoLockMinutes={wallet.autoLockMinutes}
      actions={{
        save: async (next, minutes) => {
          setPolicy(await callWallet({ method: "ui_setPolicy", params: next }));
          await callWallet({ method: "ui_setAutoLock", params: { minutes } });
        },
        changePassword: async (oldPassword, newPassword) => {
          await callWallet({ method: "ui_changePassword", params: { oldPassword, newPassword } });
        },
        exportKey: async (password) =>
          (await callWallet({ method: "ui_exportKey", params: { password } })).privateKey,
        deleteHistory: async () =>
          (await callWallet({ method: "ui_deleteHistory", params: { confirm: true } })).deleted,
      }}
    />
  );
}

/** The options page: payment history and settings, as two tabs. */
export function HistoryView() {
  const [tab, setTab] = useState<"history" | "settings">("history");
  return (
    <Shell title="Spend history and settings">
      <WalletGate>
        {(wallet, lock) => (
          <div className="mx-auto flex max-w-5xl flex-col gap-4">
            <div className="flex items-start justify-between gap-4">
              <WalletIdentity wallet={wallet} />
              <Button onClick={lock}>Lock</Button>
            </div>
            <div role="tablist" aria-label="Sections" className="flex gap-2">
              {(["history", "settings"] as const).map((name) => (
                <Button
                  key={name}
                  role="tab"
                  aria-selected={tab === name}
                  aria-controls={`panel-${name}`}
                  id={`tab-${name}`}
                  variant={tab === name ? "primary" : "secondary"}
                  onClick={() => setTab(name)}
                >
                  {name === "history" ? "History" : "Settings"}
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
