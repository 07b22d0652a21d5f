import { useCallback, useEffect, useState } from "react";
import { errorText } from "@/lib/errors";
import type {
  McpServerReport,
  PaymentRow,
  PendingApproval,
  PolicyView,
  SpendSummary,
  WalletState,
} from "@/lib/messages";
import { callWallet } from "@/lib/ui/client";
import { t } from "@/lib/ui/i18n";
import { showMicro } from "@/lib/ui/money";
import { withOriginAutoApprove } from "@/lib/ui/origin-budget";
import { budgetWords, siteWords } from "@/lib/ui/payment-words";
import { activeTabOrigin } from "@/lib/ui/tab-origin";
import { BackupStep } from "../shared/BackupStep";
import { Button, CopyButton, ErrorNote, LINK_CLASS } from "../shared/controls";
import { Shell } from "../shared/Shell";
import { WalletGate, WalletIdentity } from "../shared/WalletGate";
import { BalanceCard } from "./BalanceCard";
import { PageOffer } from "./PageOffer";
import { RecentPayments } from "./RecentPayments";
import { SiteAutoApprove } from "./SiteAutoApprove";
import { SpendBars } from "./SpendBars";

interface PopupData {
  origin?: string;
  spend: SpendSummary[];
  pricing: McpServerReport[];
  pending: PendingApproval[];
  recent: PaymentRow[];
  policy: PolicyView;
}

async function loadPopup(): Promise<PopupData> {
  const origin = await activeTabOrigin();
  const [spend, pricing, pending, recent, policy] = await Promise.all([
    callWallet({ method: "ui_getSpend", params: origin ? { origin } : {} }),
    origin ? callWallet({ method: "ui_getPricing", params: { origin } }) : Promise.resolve([]),
    callWallet({ method: "ui_listPending", params: undefined }),
    callWallet({ method: "ui_listPayments", params: { filter: {}, offset: 0, limit: 5 } }),
    callWallet({ method: "ui_getPolicy", params: undefined }),
  ]);
  return { origin, spend, pricing, pending, recent: recent.rows, policy };
}

/** The background's own window (lib/payments/approvals.ts show): one, known to the queue. */
function openConfirmWindow() {
  void callWallet({ method: "ui_showConfirmWindow", params: undefined }).catch(() => undefined);
}

/** The site in the active tab: its budget, what is left today, its switch, its price hints. */
function ThisSite({ data, reload }: { data: PopupData; reload(): Promise<void> }) {
  // One summary per currency: the site's budget is in the one of its currency.
  const site =
    data.spend.find((s) => s.origin?.budget)?.origin ?? data.spend.find((s) => s.origin)?.origin;
  const currency = site?.budget?.currency ?? data.spend[0]?.currency ?? "USD";
  const hints = data.pricing.flatMap((server) =>
    (server.tools ?? []).map((tool) => ({ server: server.server, ...tool })),
  );
  const saveAutoApprove = async (upTo: string, dailyBudget: string) => {
    if (!data.origin) return;
    const policy = await callWallet({ method: "ui_getPolicy", params: undefined });
    await callWallet({
      method: "ui_setPolicy",
      params: withOriginAutoApprove(policy, data.origin, upTo, { currency, dailyBudget }),
    });
    await reload();
  };
  return (
    <section aria-labelledby="site-h" className="flex flex-col gap-2">
      <h2 id="site-h" className="font-semibold">
        {t("popup.site.title")}
      </h2>
      {data.origin ? (
        <>
          <p className="text-sm font-medium break-all" data-testid="tab-origin">
            {siteWords(data.origin)}
          </p>
          {site?.budget ? (
            <p className="text-sm" data-testid="site-budget">
              {budgetWords(showMicro(site.budget.amount, site.budget.currency), site.budget.period)}
              {site.remaining &&
                ` · ${t("popup.site.remaining", [showMicro(site.remaining, site.budget.currency)])}`}
            </p>
          ) : (
            <p className="text-sm">{t("popup.site.noBudget")}</p>
          )}
          <SiteAutoApprove
            key={data.origin}
            budget={data.policy.origins[data.origin]}
            currency={currency}
            onSave={saveAutoApprove}
          />
          {hints.length > 0 && (
            <ul aria-label={t("popup.site.priceHints")} className="text-xs">
              {hints.map((tool) => (
                <li key={`${tool.server} ${tool.name}`}>
                  <bdi className="font-mono">{tool.name}</bdi>:{" "}
                  <bdi>{tool.pricing?.estimate ?? t("popup.site.priceUnknown")}</bdi>
                  {tool.pricing?.model ? (
                    <>
                      {" "}
                      (<bdi>{tool.pricing.model}</bdi>)
                    </>
                  ) : (
                    ""
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <p className="text-sm">{t("popup.site.notWeb")}</p>
      )}
    </section>
  );
}

function Dashboard() {
  const [data, setData] = useState<PopupData>();
  const [error, setError] = useState<string>();
  const reload = useCallback(
    () => loadPopup().then(setData, (e: unknown) => setError(errorText(e))),
    [],
  );
  useEffect(() => void reload(), [reload]);
  if (error) return <ErrorNote>{error}</ErrorNote>;
  if (!data) return <p aria-busy="true">{t("common.loading")}</p>;
  return (
    <div className="flex flex-col gap-4">
      {data.pending.length > 0 && (
        <Button variant="primary" onClick={openConfirmWindow}>
          {t("popup.pending", data.pending.length)}
        </Button>
      )}
      <SpendBars spend={data.spend} />
      <ThisSite data={data} reload={reload} />
      <RecentPayments rows={data.recent} />
    </div>
  );
}

/** Until the person has saved a copy of a key the wallet made: a reminder, and the backup on demand. */
function BackupReminder({ onSaved }: { onSaved(): Promise<void> }) {
  const [open, setOpen] = useState(false);
  return (
    <div
      role="alert"
      className="flex flex-col gap-2 rounded border border-amber-400 bg-amber-50 p-2 text-sm dark:border-amber-600 dark:bg-amber-950"
    >
      {open ? (
        <BackupStep onSaved={() => void onSaved()} onLater={() => setOpen(false)} />
      ) : (
        <>
          <p>{t("backup.reminder")}</p>
          <Button variant="primary" className="self-start" onClick={() => setOpen(true)}>
            {t("backup.now")}
          </Button>
        </>
      )}
    </div>
  );
}

function WalletFooter({ wallet }: { wallet: WalletState }) {
  return (
    <div className="flex flex-col gap-2">
      <a className={LINK_CLASS} href="/options.html" target="_blank" rel="noreferrer">
        {t("popup.openSettings")}
      </a>
      <details className="text-xs">
        <summary className="cursor-pointer">{t("common.details")}</summary>
        <WalletIdentity wallet={wallet} />
      </details>
    </div>
  );
}

export function PopupView() {
  return (
    <Shell title={t("app.name")}>
      <WalletGate>
        {(wallet, lock, actions) => (
          <div className="flex flex-col gap-4">
            {wallet.backupPending && <BackupReminder onSaved={actions.confirmBackup} />}
            <PageOffer />
            <BalanceCard />
            <div className="flex flex-wrap gap-2">
              {wallet.address && <CopyButton text={wallet.address} label={t("fund.copyAddress")} />}
              <Button onClick={lock}>{t("common.lock")}</Button>
            </div>
            <Dashboard />
            <WalletFooter wallet={wallet} />
          </div>
        )}
      </WalletGate>
    </Shell>
  );
}
