import type { OriginBudgetView, PolicyView } from "../messages";

/** The budget a site gets when the person first lets it pay without asking. */
export interface NewOriginBudget {
  currency: string;
  /** Micro units the site may spend per day. */
  dailyBudget: string;
}

/**
 * The policy with `origin` auto-approving single payments up to `upTo` micro units
 * ("0" turns auto-approve off). A site without a budget gets a daily one; its
 * per-call maximum is the whole day's budget, since a larger call could never fit.
 */
export function withOriginAutoApprove(
  policy: PolicyView,
  origin: string,
  upTo: string,
  fresh: NewOriginBudget,
): PolicyView {
  const current = policy.origins[origin];
  if (!current && upTo === "0") return policy;
  const budget: OriginBudgetView = current
    ? { ...current, autoApproveUpTo: upTo }
    : {
        currency: fresh.currency,
        amount: fresh.dailyBudget,
        period: "day",
        autoApproveUpTo: upTo,
        perCallMax: fresh.dailyBudget,
      };
  return { ...policy, origins: { ...policy.origins, [origin]: budget } };
}
