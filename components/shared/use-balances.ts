import { useEffect, useState } from "react";
import { errorText } from "@/lib/errors";
import type { BalanceRow } from "@/lib/messages";
import { callWallet } from "@/lib/ui/client";

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
