import type { ApprovalWarning } from "@/lib/messages";
import { t } from "@/lib/ui/i18n";

const TEXT: Record<ApprovalWarning, () => string> = {
  "unverified-receiver": () => t("confirm.warning.unverifiedReceiver"),
  "first-payment-to-receiver": () => t("confirm.warning.firstPayment"),
  "far-above-usual": () => t("confirm.warning.farAboveUsual"),
  "above-price-hint": () => t("confirm.warning.aboveHint"),
  "server-did-not-declare-payments": () => t("confirm.warning.undeclared"),
  "signed-price-refused": () => t("confirm.warning.signedPriceRefused"),
  "price-in-tool-text": () => t("confirm.warning.priceInToolText"),
  testnet: () => t("confirm.warning.testnet"),
  mainnet: () => t("confirm.warning.mainnet"),
  "insufficient-balance": () => t("confirm.warning.insufficient"),
  "waited-unshown": () => t("confirm.warning.waitedUnshown"),
};

/** Warnings that stand out above everything else; testnet is information, the rest alarm. */
export function Warnings({ warnings }: { warnings: ApprovalWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul aria-label={t("confirm.warnings")} className="flex flex-col gap-1">
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
          {TEXT[warning]()}
        </li>
      ))}
    </ul>
  );
}
