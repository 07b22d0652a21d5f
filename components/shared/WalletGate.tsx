import { type ReactNode, useEffect, useState } from "react";
import { useStore } from "zustand";
import type { WalletState } from "@/lib/messages";
import { callWallet } from "@/lib/ui/client";
import { errorText } from "@/lib/ui/error-text";
import { inputToMicro } from "@/lib/ui/money";
import { createWalletStore } from "@/lib/ui/wallet-store";
import { Button, ErrorNote, Field } from "./controls";
import { LockScreen } from "./LockScreen";
import { Onboarding } from "./Onboarding";

/** First-run caps: safe defaults, and no site auto-approved until the person says so. */
function FirstRunBudgets({ onDone }: { onDone(): void }) {
  const [day, setDay] = useState("5");
  const [month, setMonth] = useState("50");
  const [error, setError] = useState<string>();
  const save = async () => {
    try {
      const policy = await callWallet({ method: "ui_getPolicy", params: undefined });
      const caps = {
        day: inputToMicro(day, "Daily cap (USD)"),
        month: inputToMicro(month, "Monthly cap (USD)"),
      };
      await callWallet({
        method: "ui_setPolicy",
        params: { ...policy, globalCaps: { ...policy.globalCaps, USD: caps } },
      });
      onDone();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <div className="flex flex-col gap-3">
      <h2 className="font-semibold">Spending caps</h2>
      <p className="text-sm">
        All sites together can never spend more than this. No site pays without asking until you
        allow it.
      </p>
      <Field
        label="Daily cap (USD)"
        inputMode="decimal"
        value={day}
        onChange={(e) => setDay(e.target.value)}
      />
      <Field
        label="Monthly cap (USD)"
        inputMode="decimal"
        value={month}
        onChange={(e) => setMonth(e.target.value)}
      />
      <ErrorNote>{error}</ErrorNote>
      <Button variant="primary" onClick={() => void save()}>
        Save
      </Button>
    </div>
  );
}

/** The wallet's identity, once known. */
export function WalletIdentity({ wallet }: { wallet: WalletState }) {
  return (
    <dl className="grid grid-cols-[5rem_1fr] gap-1 text-xs">
      <dt>Address</dt>
      <dd className="font-mono break-all" data-testid="address">
        {wallet.address ?? "—"}
      </dd>
      <dt>Wallet id</dt>
      <dd className="font-mono break-all" data-testid="wallet-id">
        {wallet.walletId ?? "—"}
      </dd>
    </dl>
  );
}

/** Shows onboarding, first-run caps or the lock screen until the wallet is unlocked. */
export function WalletGate({
  children,
}: {
  children(wallet: WalletState, lock: () => void): ReactNode;
}) {
  const [store] = useState(createWalletStore);
  const { wallet, busy, error } = useStore(store);
  const [firstRun, setFirstRun] = useState(false);
  useEffect(() => void store.getState().load(), [store]);
  if (!wallet)
    return error ? (
      <ErrorNote>{error}</ErrorNote>
    ) : (
      <p aria-busy="true">Connecting to the wallet…</p>
    );
  if (!wallet.hasWallet) {
    return (
      <Onboarding
        busy={busy}
        error={error}
        onCreate={(password, key) => {
          setFirstRun(true);
          void store.getState().create(password, key);
        }}
      />
    );
  }
  if (wallet.locked) {
    return (
      <LockScreen
        address={wallet.address}
        busy={busy}
        error={error}
        onUnlock={(pw) => void store.getState().unlock(pw)}
      />
    );
  }
  if (firstRun) {
    return (
      <div className="flex flex-col gap-3">
        <p>Your wallet is ready.</p>
        <WalletIdentity wallet={wallet} />
        <FirstRunBudgets onDone={() => setFirstRun(false)} />
      </div>
    );
  }
  return <>{children(wallet, () => void store.getState().lock())}</>;
}
