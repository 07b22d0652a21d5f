import type { PaymentFilter, PaymentStateView } from "../messages";
import { DAY_MS } from "../wallet/periods";
import { UiError } from "./errors";
import { t } from "./i18n";

/** The history filter form as typed: every field a string, "" meaning "any". */
export interface FilterForm {
  origin: string;
  receiver: string;
  state: "" | PaymentStateView;
  /** YYYY-MM-DD from `<input type="date">`, read as UTC days like the budget periods. */
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

function utcDayStart(field: string, value: string): number {
  const match = DATE.exec(value);
  const [, y, m, d] = match ?? [];
  const time = Date.UTC(Number(y), Number(m) - 1, Number(d));
  if (!match || Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) {
    throw new UiError("invalid-date-input", t("history.filter.dateFormat", [field, value]));
  }
  return time;
}

/** The PaymentFilter for a form; the date range includes the whole "to" day. */
export function toPaymentFilter(form: FilterForm): PaymentFilter {
  const filter: PaymentFilter = {};
  const origin = form.origin.trim();
  const receiver = form.receiver.trim();
  const text = form.text.trim();
  if (origin) filter.origin = origin;
  if (receiver) filter.receiver = receiver;
  if (form.state) filter.state = form.state;
  if (form.fromDate) filter.from = utcDayStart(t("history.filter.from"), form.fromDate);
  if (form.toDate) filter.to = utcDayStart(t("history.filter.to"), form.toDate) + DAY_MS - 1;
  if (text) filter.text = text;
  return filter;
}
