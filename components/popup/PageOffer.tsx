import { useEffect, useState } from "react";
import { errorText } from "@/lib/errors";
import type { PageOfferView } from "@/lib/messages";
import { callWallet } from "@/lib/ui/client";
import { t } from "@/lib/ui/i18n";
import { showAmount } from "@/lib/ui/money";
import { activePageTabId } from "@/lib/ui/tab-origin";
import { Clipped, DESCRIPTION_SHOWN, NAME_SHOWN } from "../shared/Clipped";
import { Button, ErrorNote } from "../shared/controls";

/**
 * The paywalled page open in the person's tab, when it asked for a payment:
 * what it costs and one button to pay it through the wallet (the usual
 * budgets and confirmation window apply), after which the page loads paid.
 */
export function PageOffer() {
  const [tab, setTab] = useState<{ id: number; offer: PageOfferView }>();
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    void (async () => {
      const id = await activePageTabId();
      if (id === undefined) return;
      const offer = await callWallet({ method: "ui_getPageOffer", params: { tabId: id } });
      if (offer) setTab({ id, offer });
    })().catch((e: unknown) => setError(errorText(e)));
  }, []);
  if (!tab) return error ? <ErrorNote>{error}</ErrorNote> : null;
  const { offer } = tab;
  const pay = async () => {
    setPaying(true);
    setError(undefined);
    try {
      await callWallet({ method: "ui_payPage", params: { tabId: tab.id, viewId: offer.viewId } });
      window.close();
    } catch (e) {
      setError(errorText(e));
      setPaying(false);
    }
  };
  return (
    <section
      aria-labelledby="page-offer-h"
      className="flex flex-col gap-2 rounded border border-amber-600 p-3"
      data-testid="page-offer"
    >
      <h2 id="page-offer-h" className="font-semibold">
        {t("popup.pageOffer.title")}
      </h2>
      <div className="break-words text-sm">
        {offer.description ? (
          <Clipped
            text={offer.description}
            shown={DESCRIPTION_SHOWN}
            more={t("popup.pageOffer.fullDescription")}
            testId="page-offer-description"
          />
        ) : (
          t("popup.pageOffer.noDescription")
        )}
      </div>
      <p className="font-mono text-sm" data-testid="page-offer-amount">
        {showAmount(offer.amount)}
        {offer.amount.testnet ? ` ${t("popup.pageOffer.testnet")}` : ""}
      </p>
      <div className="font-mono text-xs break-all">
        <Clipped text={offer.url} shown={NAME_SHOWN} more={t("popup.pageOffer.fullAddress")} />
      </div>
      <Button variant="primary" disabled={paying || offer.paying} onClick={pay}>
        {offer.paying || paying ? t("popup.pageOffer.paying") : t("popup.pageOffer.pay")}
      </Button>
      <ErrorNote>{error}</ErrorNote>
    </section>
  );
}
