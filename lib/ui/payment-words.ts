import type { OriginBudgetView, PaymentRow } from "../messages";
import { proxiedOrigin } from "../wallet/budget-origin";
import { formattingShown } from "./bidi";
import { t } from "./i18n";

/**
 * Who was paid, as a person reads it: a receiver's site for a Stipendex issuer
 * URL, after the name its descriptor gives itself (its own claim: the site is
 * what was checked), the shortened account for an x402 `eip155:<chain>:<address>`.
 */
export function receiverWords(receiver: string, name?: string): string {
  const words = receiverIdWords(receiver);
  return name && name !== words ? `${name} (${words})` : words;
}

function receiverIdWords(receiver: string): string {
  const account = /^eip155:\d+:(0x[0-9a-fA-F]{40})$/.exec(receiver)?.[1];
  if (account) return `${account.slice(0, 6)}…${account.slice(-4)}`;
  try {
    return new URL(receiver).host || receiver;
  } catch {
    return receiver;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Who asked, in full: a page's origin as the browser reported it, or a
 * desktop app by the server its stipendex-proxy forwards to.
 */
export function callerWords(caller: string): string {
  const upstream = proxiedOrigin(caller);
  return upstream === undefined ? caller : t("caller.proxy", [upstream]);
}

/** Whether the caller is a desktop app (through stipendex-proxy), not a web page. */
export function isDesktopApp(caller: string): boolean {
  return proxiedOrigin(caller) !== undefined;
}

/** A site as its host ("shop.example:8443"), a desktop app as callerWords says; else as it is. */
export function siteWords(origin: string): string {
  if (isDesktopApp(origin)) return callerWords(origin);
  try {
    return new URL(origin).host || origin;
  } catch {
    return origin;
  }
}

/**
 * What was paid for: a tool's name as it is, an HTTP call as its path (decoded),
 * each with its invisible formatting characters written out (bidi.ts).
 */
export function whatWords(what: string): string {
  try {
    const url = new URL(what);
    return formattingShown(safeDecode(url.pathname + url.search));
  } catch {
    return formattingShown(what);
  }
}

/**
 * What a payment was for, in words: whatWords, after the tool the caller said
 * an HTTP-priced call is (seed 004), marked as its word.
 */
export function paidForWords(row: Pick<PaymentRow, "origin" | "what" | "describedTool">): string {
  const what = whatWords(row.what);
  if (row.describedTool === undefined) return what;
  const key = isDesktopApp(row.origin) ? "history.describedToolByApp" : "history.describedTool";
  return t(key, [formattingShown(row.describedTool), what]);
}

/** Who was paid and for what, in words. */
export function paymentWords(
  row: Pick<PaymentRow, "origin" | "receiver" | "receiverName" | "what" | "describedTool">,
) {
  return { who: receiverWords(row.receiver, row.receiverName), what: paidForWords(row) };
}

/** A site's budget as the popup states it: "Budget: 5 USD per day", or one that never renews. */
export function budgetWords(amount: string, period: OriginBudgetView["period"]): string {
  if (period === "day") return t("popup.site.budget.day", [amount]);
  if (period === "week") return t("popup.site.budget.week", [amount]);
  if (period === "month") return t("popup.site.budget.month", [amount]);
  return t("popup.site.budget.none", [amount]);
}

/** An amount (a currency, for a field beside it) for a budget's period: "USD per day". */
export function perPeriodWords(amount: string, period: OriginBudgetView["period"]): string {
  if (period === "day") return t("popup.site.perPeriod.day", [amount]);
  if (period === "week") return t("popup.site.perPeriod.week", [amount]);
  if (period === "month") return t("popup.site.perPeriod.month", [amount]);
  return t("popup.site.perPeriod.none", [amount]);
}
