import { useState } from "react";
import type { DisplayAmount } from "@/lib/messages";
import { t } from "@/lib/ui/i18n";
import { showAmount } from "@/lib/ui/money";
import { LINK_CLASS } from "../shared/controls";

/** The human amount with symbol and network; the atomic amount and decimals on demand. */
export function AmountView({ amount }: { amount: DisplayAmount }) {
  const [atomicShown, setAtomicShown] = useState(false);
  return (
    <div>
      <p className="text-lg font-semibold" data-testid="amount">
        {showAmount(amount)}{" "}
        <span className="text-sm font-normal">
          {t("confirm.onNetwork", [
            amount.networkName,
            amount.testnet ? t("confirm.testnet") : t("confirm.mainnet"),
          ])}
        </span>
      </p>
      <button
        type="button"
        aria-expanded={atomicShown}
        className={`${LINK_CLASS} text-xs`}
        onClick={() => setAtomicShown(!atomicShown)}
      >
        {atomicShown ? t("confirm.hideAtomic") : t("confirm.showAtomic")}
      </button>
      {atomicShown && (
        <p className="font-mono text-xs" data-testid="atomic-amount">
          {t("confirm.atomic", [amount.atomic, String(amount.decimals), amount.network])}
        </p>
      )}
    </div>
  );
}
