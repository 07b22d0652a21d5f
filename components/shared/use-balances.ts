import { useEffect, useState } from "react";
import type { BalanceRow } from "@/lib/messages";
import { callWallet } from "@/lib/ui/client";
import { errorText } from "@/lib/ui/error-text";

/** The paying address's balances, read once when the component mounts, or why they could not be. */
export function useBalances(): { rows?: BalanceRow[]; error?: string } {
  const [rows, setRows] = useState<BalanceRow[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    callWallet({ method: "ui_getBalances", params: undefined }).then(
      ({ balances }) => setRows(balances),
      (e: unknown) => setError(errorText(e)),
    );
  }, []);
  return { rows, error };
}
