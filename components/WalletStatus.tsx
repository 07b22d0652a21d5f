import { useEffect, useState } from "react";
import type { StatusResult } from "@/lib/messages";
import { callWallet } from "@/lib/ui/client";

/** Shows whether the background wallet answers, and its version. */
export function WalletStatus() {
  const [status, setStatus] = useState<StatusResult | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    callWallet({ method: "ui_status", params: undefined }).then(setStatus, (e: unknown) =>
      setError(e instanceof Error ? e.message : String(e)),
    );
  }, []);
  if (error) return <p role="alert">Wallet not reachable: {error}</p>;
  if (!status) return <p aria-busy="true">Connecting to the wallet…</p>;
  return (
    <p data-testid="wallet-status">
      Wallet ready · version <span className="font-mono">{status.version}</span>
    </p>
  );
}
