import { Shell } from "./Shell";
import { WalletStatus } from "./WalletStatus";

export function PopupView() {
  return (
    <Shell title="Stipendex Wallet">
      <WalletStatus />
      <nav className="mt-4">
        <a
          className="text-emerald-700 underline focus-visible:outline-2 dark:text-emerald-400"
          href="/options.html"
          target="_blank"
          rel="noreferrer"
        >
          Spend history and settings
        </a>
      </nav>
    </Shell>
  );
}
