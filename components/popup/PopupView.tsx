import { useCallback, useEffect, useState } from "react";
import type {
  McpServerReport,
  PaymentRow,
  PendingApproval,
  PolicyView,
  SpendSummary,
} from "@/lib/messages";
import { callWallet } from "@/lib/ui/client";
import { errorText } from "@/lib/ui/error-text";
import { showAmount, showMicro } from "@/lib/ui/money";
import { withOriginAutoApprove } from "@/lib/ui/origin-budget";
import { activeTabOrigin } from "@/lib/ui/tab-origin";
import { Button, ErrorNote, LINK_CLASS } from "../shared/controls";
import { Shell } from "../shared/Shell";
import { WalletGate, WalletIdentity } from "../shared/WalletGate";
import { BalanceCard } from "./BalanceCard";
import { PageOffer } from "./PageOffer";
import { SiteAutoApprove } from "./SiteAutoApprove";

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

function openConfirmWindow() {
  void browser.windows.create({
    url: browser.runtime.getURL("/confirm.html"),
    type: "popup",
    width: 440,
    height: 680,
  });
}

const cap = (spent: string, limit: string | undefined, currency: string) =>
  `${showMicro(spent, currency)}${limit ? ` of ${showMicro(limit, currency)}` : " (no cap)"}`;

function Dashboard() {
  const [data, setData] = useState<PopupData>();
  const [error, setError] = useState<string>();
  const reload = useCallback(
    () => loadPopup().then(setData, (e: unknown) => setError(errorText(e))),
    [],
  );
  useEffect(() => void reload(), [reload]);
  if (error) return <ErrorNote>{error}</ErrorNote>;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const site = data.spend.find((s) => s.origin)?.origin;
  const currency = site?.budget?.currency ?? data.spend[0]?.currency ?? "USD";
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
    <div className="flex flex-col gap-4">
      {data.pending.length > 0 && (
        <Button variant="primary" onClick={openConfirmWindow}>
          Review {data.pending.length} pending {data.pending.length === 1 ? "payment" : "payments"}
        </Button>
      )}
      <section aria-labelledby="spend-h">
        <h2 id="spend-h" className="font-semibold">
          Spent
        </h2>
        {data.spend.length === 0 && <p className="text-sm">Nothing yet.</p>}
        {data.spend.map((s) => (
          <p key={s.currency} className="text-sm">
            Today {cap(s.today, s.dayCap, s.currency)} · this month{" "}
            {cap(s.month, s.monthCap, s.currency)}
          </p>
        ))}
      </section>
      <section aria-labelledby="site-h" className="flex flex-col gap-2">
        <h2 id="site-h" className="font-semibold">
          This site
        </h2>
        {data.origin ? (
          <>
            <p className="font-mono text-xs break-all" data-testid="tab-origin">
              {data.origin}
            </p>
            {site?.budget ? (
              <p className="text-sm">
                Budget {showMicro(site.budget.amount, site.budget.currency)} per{" "}
                {site.budget.period}; spent {showMicro(site.spent, site.budget.currency)}
                {site.remaining ? `, ${showMicro(site.remaining, site.budget.currency)} left` : ""}
              </p>
            ) : (
              <p className="text-sm">No budget: every payment asks you.</p>
            )}
            {data.pricing.flatMap((server) => server.tools ?? []).length > 0 && (
              <ul aria-label="Price hints" className="text-xs">
                {data.pricing.flatMap((server) =>
                  (server.tools ?? []).map((tool) => (
                    <li key={`${server.server} ${tool.name}`}>
                      <span className="font-mono">{tool.name}</span>:{" "}
                      {tool.pricing?.estimate ?? "price not stated"}
                      {tool.pricing?.model ? ` (${tool.pricing.model})` : ""}
                    </li>
                  )),
                )}
              </ul>
            )}
            <SiteAutoApprove
              key={data.origin}
              budget={data.policy.origins[data.origin]}
              currency={currency}
              onSave={saveAutoApprove}
            />
          </>
        ) : (
          <p className="text-sm">This tab is not a web page.</p>
        )}
      </section>
      <section aria-labelledby="recent-h">
        <h2 id="recent-h" className="font-semibold">
          Last payments
        </h2>
        <ul className="text-xs">
          {data.recent.map((p) => (
            <li key={p.id} className="flex justify-between gap-2">
              <span className="truncate">{p.what}</span>
              <span>{p.state}</span>
              <span className="font-mono whitespace-nowrap">{showAmount(p.amount)}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

export function PopupView() {
  return (
    <Shell title="Stipendex Wallet">
      <WalletGate>
        {(wallet, lock) => (
          <div className="flex flex-col gap-4">
            <div className="flex items-start justify-between gap-2">
              <WalletIdentity wallet={wallet} />
              <Button onClick={lock}>Lock</Button>
            </div>
            <PageOffer />
            <BalanceCard />
            <Dashboard />
            <a className={LINK_CLASS} href="/options.html" target="_blank" rel="noreferrer">
              Spend history and settings
            </a>
          </div>
        )}
      </WalletGate>
    </Shell>
  );
}
