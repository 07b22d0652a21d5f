import { useState } from "react";
import { errorText } from "@/lib/errors";
import type { PaymentFilter, PaymentStateView } from "@/lib/messages";
import { PAYMENT_STATES } from "@/lib/payment-states";
import { EMPTY_FILTER_FORM, type FilterForm, toPaymentFilter } from "@/lib/ui/history-filter";
import { t } from "@/lib/ui/i18n";
import { stateWords } from "@/lib/ui/state-words";
import { ErrorNote, Field, SelectField } from "../shared/controls";

const STATES: readonly PaymentStateView[] = PAYMENT_STATES;

/** The history filters; reports each valid change as a PaymentFilter. */
export function HistoryFilters({ onFilter }: { onFilter(filter: PaymentFilter): void }) {
  const [form, setForm] = useState<FilterForm>(EMPTY_FILTER_FORM);
  const [error, setError] = useState<string>();
  const change = (patch: Partial<FilterForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    try {
      const filter = toPaymentFilter(next);
      setError(undefined);
      onFilter(filter);
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <search aria-label={t("history.filter.label")} className="flex flex-col gap-2">
      <Field
        label={t("history.filter.search")}
        type="search"
        placeholder={t("history.filter.placeholder")}
        value={form.text}
        onChange={(e) => change({ text: e.target.value })}
      />
      <div className="grid grid-cols-2 gap-2 md:grid-cols-5">
        <Field
          label={t("history.filter.origin")}
          value={form.origin}
          onChange={(e) => change({ origin: e.target.value })}
        />
        <Field
          label={t("history.filter.receiver")}
          value={form.receiver}
          onChange={(e) => change({ receiver: e.target.value })}
        />
        <SelectField
          label={t("history.filter.state")}
          value={form.state}
          onChange={(e) => change({ state: e.target.value as FilterForm["state"] })}
        >
          <option value="">{t("history.filter.any")}</option>
          {STATES.map((state) => (
            <option key={state} value={state}>
              {stateWords(state)}
            </option>
          ))}
        </SelectField>
        <Field
          label={t("history.filter.from")}
          type="date"
          value={form.fromDate}
          onChange={(e) => change({ fromDate: e.target.value })}
        />
        <Field
          label={t("history.filter.to")}
          type="date"
          value={form.toDate}
          onChange={(e) => change({ toDate: e.target.value })}
        />
      </div>
      <ErrorNote>{error}</ErrorNote>
    </search>
  );
}
