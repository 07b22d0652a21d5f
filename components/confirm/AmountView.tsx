import { useState } from "react";
import type { DisplayAmount } from "@/lib/messages";
import { showAmount } from "@/lib/ui/money";

/** The human amount with symbol and network; the atomic amount and decimals on demand. */
export function AmountView({ amount }: { amount: DisplayAmount }) {
  const [atomicShown, setAtomicShown] = useState(false);
  return (
    <div>
      <p className="text-lg font-semibold" data-testid="amount">
        {showAmount(amount)}{" "}
        <span className="text-sm font-normal">
          on {amount.networkName} ({amount.testnet ? "testnet" : "mainnet"})
        </span>
      </p>
      <button
        type="button"
        aria-expanded={atomicShown}
        className="text-xs text-emerald-700 underline focus-visible:outline-2 dark:text-emerald-400"
        onClick={() => setAtomicShown(!atomicShown)}
      >
        {atomicShown ? "Hide atomic amount" : "Show atomic amount"}
      </button>
      {atomicShown && (
        <p className="font-mono text-xs" data-testid="atomic-amount">
          {amount.atomic} atomic units · {amount.decimals} decimals · {amount.network}
        </p>
      )}
    </div>
  );
}
