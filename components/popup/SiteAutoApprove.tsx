import { useState } from "react";
import type { OriginBudgetView } from "@/lib/messages";
import { errorText } from "@/lib/ui/error-text";
import { inputToMicro, microToInput } from "@/lib/ui/money";
import { Button, ErrorNote, INPUT_CLASS } from "../shared/controls";

/** The popup's switch: let this site pay up to an amount per call without asking. */
export function SiteAutoApprove({
  budget,
  currency,
  onSave,
}: {
  budget?: OriginBudgetView;
  currency: string;
  /** Micro units; "0" turns auto-approve off. */
  onSave(upTo: string, dailyBudget: string): Promise<void>;
}) {
  const on = budget !== undefined && budget.autoApproveUpTo !== "0";
  const [enabled, setEnabled] = useState(on);
  const [upTo, setUpTo] = useState(on && budget ? microToInput(budget.autoApproveUpTo) : "0.01");
  const [daily, setDaily] = useState(budget ? microToInput(budget.amount) : "1");
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const save = async () => {
    setError(undefined);
    setSaved(false);
    try {
      const limit = enabled ? inputToMicro(upTo, "Auto-approve limit") : "0";
      await onSave(limit, inputToMicro(daily, "Daily budget"));
      setSaved(true);
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <div className="flex flex-col gap-2 text-sm">
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          role="switch"
          aria-checked={enabled}
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
        />
        Auto-approve on this site
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          aria-label="Auto-approve limit"
          className={`w-20 ${INPUT_CLASS}`}
          value={upTo}
          disabled={!enabled}
          onChange={(e) => setUpTo(e.target.value)}
        />
        <span>{currency} per call, within</span>
        <input
          aria-label="Daily budget"
          className={`w-20 ${INPUT_CLASS}`}
          value={daily}
          disabled={budget !== undefined}
          onChange={(e) => setDaily(e.target.value)}
        />
        <span>
          {currency} {budget ? `per ${budget.period}` : "per day"}
        </span>
      </div>
      <ErrorNote>{error}</ErrorNote>
      {saved && <p role="status">Saved.</p>}
      <Button variant="primary" className="self-start" onClick={() => void save()}>
        Save
      </Button>
    </div>
  );
}
