import type { ApprovalWarning } from "@/lib/messages";

const TEXT: Record<ApprovalWarning, string> = {
  "unverified-receiver": "Unverified receiver: the wallet could not confirm who is paid.",
  "first-payment-to-receiver": "First payment to this receiver.",
  "far-above-usual": "Far above what this site usually pays.",
  "above-price-hint": "Above the price the server announced for this tool.",
  "server-did-not-declare-payments":
    "This server never said it takes Stipendex payments (it did not declare them when connecting).",
  testnet: "Testnet: test money, not real funds.",
  mainnet: "Mainnet: this spends real money.",
  "insufficient-balance":
    "Not enough funds: the paying address holds less of this token than this payment (after what is already signed). The receiver will refuse it.",
};

/** Warnings that stand out above everything else; testnet is information, the rest alarm. */
export function Warnings({ warnings }: { warnings: ApprovalWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul aria-label="Warnings" className="flex flex-col gap-1">
      {warnings.map((warning) => (
        <li
          key={warning}
          data-warning={warning}
          className={
            warning === "testnet"
              ? "rounded border border-sky-400 bg-sky-50 px-2 py-1 text-sm text-sky-900 dark:bg-sky-950 dark:text-sky-100"
              : "rounded border-2 border-amber-500 bg-amber-50 px-2 py-1 text-sm font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          }
        >
          <span aria-hidden="true">⚠ </span>
          {TEXT[warning]}
        </li>
      ))}
    </ul>
  );
}
