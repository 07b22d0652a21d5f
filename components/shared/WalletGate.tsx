import { type ReactNode, useEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import { errorText } from "@/lib/errors";
import type { WalletState } from "@/lib/messages";
import { callWallet } from "@/lib/ui/client";
import { t } from "@/lib/ui/i18n";
import { inputToMicro } from "@/lib/ui/money";
import { createWalletStore } from "@/lib/ui/wallet-store";
import { BackupStep } from "./BackupStep";
import { Button, ErrorNote, Field, StepHeading } from "./controls";
import { FundingInfo } from "./FundingStep";
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
        day: inputToMicro(day, t("caps.day")),
        month: inputToMicro(month, t("caps.month")),
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
    <section aria-labelledby="caps-h" className="flex flex-col gap-3">
      <StepHeading id="caps-h">{t("caps.title")}</StepHeading>
      <p className="text-sm">{t("caps.explain")}</p>
      <Field
        label={t("caps.day")}
        inputMode="decimal"
        value={day}
        onChange={(e) => setDay(e.target.value)}
      />
      <Field
        label={t("caps.month")}
        inputMode="decimal"
        value={month}
        onChange={(e) => setMonth(e.target.value)}
      />
      <ErrorNote>{error}</ErrorNote>
      <Button variant="primary" onClick={() => void save()}>
        {t("common.save")}
      </Button>
    </section>
  );
}

/** The wallet's identity, once known. */
export function WalletIdentity({ wallet }: { wallet: WalletState }) {
  return (
    <dl className="grid grid-cols-[5rem_1fr] gap-1 text-xs">
      <dt>{t("popup.identity.address")}</dt>
      <dd className="font-mono break-all" data-testid="address">
        {wallet.address ?? "—"}
      </dd>
      <dt>{t("popup.identity.walletId")}</dt>
      <dd className="font-mono break-all" data-testid="wallet-id">
        {wallet.walletId ?? "—"}
      </dd>
    </dl>
  );
}

type FirstRunStep = "backup" | "caps" | "fund";

/** After a wallet is made: backup (for a key the wallet made), caps, then how to fund it. */
function FirstRun({
  wallet,
  password,
  onBackedUp,
  onDone,
}: {
  wallet: WalletState;
  password: string;
  onBackedUp(): Promise<void>;
  onDone(): void;
}) {
  const [steps] = useState<FirstRunStep[]>(() =>
    wallet.backupPending ? ["backup", "caps", "fund"] : ["caps", "fund"],
  );
  const [at, setAt] = useState(0);
  const step = steps[at];
  const next = () => (at + 1 < steps.length ? setAt(at + 1) : onDone());
  return (
    <div className="mx-auto flex w-full max-w-lg flex-col gap-3">
      <p className="text-sm font-medium">{t("onboarding.ready")}</p>
      <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="first-run-step">
        {t("onboarding.step", [String(at + 1), String(steps.length)])}
      </p>
      {step === "backup" && (
        <BackupStep
          password={password}
          onSaved={() => void onBackedUp().then(next)}
          onLater={next}
        />
      )}
      {step === "caps" && (
        <>
          <WalletIdentity wallet={wallet} />
          <FirstRunBudgets onDone={next} />
        </>
      )}
      {step === "fund" && wallet.address && (
        <>
          <FundingInfo address={wallet.address} />
          <Button variant="primary" onClick={onDone}>
            {t("common.done")}
          </Button>
        </>
      )}
    </div>
  );
}

export interface WalletActions {
  lock(): void;
  /** The person saved a copy of the key. */
  confirmBackup(): Promise<void>;
}

/**
 * The wallet's own page once it is open. Reached from onboarding, the first
 * run or the lock screen, whose control had the focus, it takes the focus on
 * its first heading (else its first control): the focus would fall to the
 * page's start, and a screen reader say nothing of what opened.
 */
function OpenWallet({ takeFocus, children }: { takeFocus: boolean; children: ReactNode }) {
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!takeFocus) return;
    const heading = content.current?.querySelector<HTMLElement>("h2, h3");
    if (heading) heading.tabIndex = -1;
    (heading ?? content.current?.querySelector<HTMLElement>("button, a[href], input"))?.focus();
  }, [takeFocus]);
  return <div ref={content}>{children}</div>;
}

/** Shows onboarding, the first-run steps or the lock screen until the wallet is unlocked. */
export function WalletGate({
  children,
}: {
  children(wallet: WalletState, lock: () => void, actions: WalletActions): ReactNode;
}) {
  const [store] = useState(createWalletStore);
  const { wallet, busy, error } = useStore(store);
  const [firstRunPassword, setFirstRunPassword] = useState<string>();
  // Whether this page showed onboarding, the first run or the lock screen before the wallet opened.
  const gated = useRef(false);
  useEffect(() => void store.getState().load(), [store]);
  if (!wallet)
    return error ? (
      <ErrorNote>{error}</ErrorNote>
    ) : (
      <p aria-busy="true">{t("common.connecting")}</p>
    );
  if (!wallet.hasWallet || wallet.locked || firstRunPassword !== undefined) gated.current = true;
  if (!wallet.hasWallet) {
    return (
      <Onboarding
        busy={busy}
        error={error}
        onCreate={(password, key) => {
          setFirstRunPassword(password);
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
  const actions: WalletActions = {
    lock: () => void store.getState().lock(),
    confirmBackup: () => store.getState().confirmBackup(),
  };
  if (firstRunPassword !== undefined) {
    return (
      <FirstRun
        wallet={wallet}
        password={firstRunPassword}
        onBackedUp={actions.confirmBackup}
        onDone={() => setFirstRunPassword(undefined)}
      />
    );
  }
  return (
    <OpenWallet takeFocus={gated.current}>{children(wallet, actions.lock, actions)}</OpenWallet>
  );
}
