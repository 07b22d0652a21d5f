import type { PaymentStateView } from "../messages";
import { t } from "./i18n";

const WORDS: Record<PaymentStateView, () => string> = {
  quoted: () => t("state.quoted"),
  approved: () => t("state.approved"),
  signed: () => t("state.signed"),
  settled: () => t("state.settled"),
  declined: () => t("state.declined"),
  refused: () => t("state.refused"),
  failed: () => t("state.failed"),
  expired: () => t("state.expired"),
};

/** A payment's state as the person reads it ("paid" for settled). */
export function stateWords(state: PaymentStateView): string {
  return WORDS[state]();
}
