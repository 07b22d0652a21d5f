import { Shell } from "./Shell";
import { WalletStatus } from "./WalletStatus";

export function HistoryView() {
  return (
    <Shell title="Spend history and settings">
      <WalletStatus />
      <section aria-labelledby="history-heading" className="mt-4">
        <h2 id="history-heading" className="font-semibold">
          Payments
        </h2>
        <p>No payments yet.</p>
      </section>
    </Shell>
  );
}
