import { useState } from "react";
import { errorText } from "@/lib/errors";
import type { OriginBudgetView } from "@/lib/messages";
import { t } from "@/lib/ui/i18n";
import { inputToMicro, microToInput } from "@/lib/ui/money";
import { perPeriodWords } from "@/lib/ui/payment-words";
import { Button, ErrorNote, INPUT_CLASS } from "../shared/controls";

/**
 * The popup's one switch for the site in front of the person: off stops its
 * automatic payments at once; on asks how much per call, within a daily budget.
 */
export function SiteAutoApprove({
  budget,
  currency,
  onSave,
}: {
  budget?: OriginBudgetView;
  currency: string;
  /** Micro units; "0" turns automatic payments off. */
  onSave(upTo: string, dailyBudget: string): Promise<void>;
}) {
  const on = budget !== undefined && budget.autoApproveUpTo !== "0";
  const [enabled, setEnabled] = useState(on);
  // Unset, 0.01 a call: in micro units, so it is written with the language's decimal mark.
  const [upTo, setUpTo] = useState(microToInput(on && budget ? budget.autoApproveUpTo : "10000"));
  const [daily, setDaily] = useState(budget ? microToInput(budget.amount) : "1");
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const save = async (limit: () => string) => {
    setError(undefined);
    setSaved(false);
    try {
      await onSave(limit(), inputToMicro(daily, t("popup.site.dailyBudget")));
      setSaved(true);
    } catch (e) {
      setError(errorText(e));
    }
  };
  const toggle = (next: boolean) => {
    setEnabled(next);
    if (!next && on) void save(() => "0");
  };
  return (
    <div className="flex flex-col gap-2 text-sm">
      <label className="flex items-center gap-2 font-medium">
        <input
          type="checkbox"
          role="switch"
          aria-checked={enabled}
          checked={enabled}
          onChange={(e) => toggle(e.target.checked)}
        />
        {t("popup.site.auto")}
      </label>
      {enabled && (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <input
              aria-label={t("popup.site.autoLimit")}
              className={`w-20 ${INPUT_CLASS}`}
              value={upTo}
              onChange={(e) => setUpTo(e.target.value)}
            />
            <span>{t("popup.site.perCallWithin", [currency])}</span>
            <input
              aria-label={t("popup.site.dailyBudget")}
              className={`w-20 ${INPUT_CLASS}`}
              value={daily}
              disabled={budget !== undefined}
              onChange={(e) => setDaily(e.target.value)}
            />
            <span>{perPeriodWords(currency, budget ? budget.period : "day")}</span>
          </div>
          <Button
            variant="primary"
            className="self-start"
            onClick={() => void save(() => inputToMicro(upTo, t("popup.site.autoLimit")))}
          >
            {t("common.save")}
          </Button>
        </>
      )}
      <ErrorNote>{error}</ErrorNote>
      {saved && <p role="status">{t("common.saved")}</p>}
    </div>
  );
}
