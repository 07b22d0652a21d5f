import type { PaymentFilter, PaymentStateView } from "../messages";
import { UiError } from "./errors";
import { t } from "./i18n";

/** The history filter form as typed: every field a string, "" meaning "any". */
export interface FilterForm {
  origin: string;
  receiver: string;
  state: "" | PaymentStateView;
  /** YYYY-MM-DD from `<input type="date">`, read as local days, as the history shows times. */
  fromDate: string;
  toDate: string;
  text: string;
}

export const EMPTY_FILTER_FORM: FilterForm = {
  origin: "",
  receiver: "",
  state: "",
  fromDate: "",
  toDate: "",
  text: "",
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The first millisecond of the local day `value` (YYYY-MM-DD), or with
 * `after` of the day after it: the history shows times in local time, so its
 * days are the person's (23 or 25 hours long where clocks change).
 */
function localDayStart(field: string, value: string, after = 0): number {
  const match = DATE.exec(value);
  const [y, m, d] = (match ?? []).slice(1).map(Number) as [number, number, number];
  const day = new Date(y, m - 1, d);
  if (!match || day.getFullYear() !== y || day.getMonth() !== m - 1 || day.getDate() !== d) {
    throw new UiError("invalid-date-input", t("history.filter.dateFormat", [field, value]));
  }
  return new Date(y, m - 1, d + after).getTime();
}

/** The PaymentFilter for a form; the date range is of local days, the whole "to" day included. */
export function toPaymentFilter(form: FilterForm): PaymentFilter {
  const filter: PaymentFilter = {};
  const origin = form.origin.trim();
  const receiver = form.receiver.trim();
  const text = form.text.trim();
  if (origin) filter.origin = origin;
  if (receiver) filter.receiver = receiver;
  if (form.state) filter.state = form.state;
  if (form.fromDate) filter.from = localDayStart(t("history.filter.from"), form.fromDate);
  if (form.toDate) filter.to = localDayStart(t("history.filter.to"), form.toDate, 1) - 1;
  if (text) filter.text = text;
  return filter;
}
