import { z } from "zod";
import type { PolicyView, UiMethod, UiMethods } from "../messages";
import { PAYMENT_STATES } from "../payment-states";
import { decideParamsSchema } from "../payments/approvals";
import { policySchema } from "./policy-store";
import { invalidParams } from "./rpc-error";

/*
 * The one place the wallet's own pages' params are checked. Those pages are
 * trusted, but what crosses runtime messaging is still data: a bug or a
 * stale page is refused with the field named, before any handler runs.
 * Each schema is typed by lib/messages.ts, so the two cannot drift apart.
 */

const none = z.unknown().transform(() => undefined);
const secret = z.string().min(1, "must not be empty").max(1024);
const origin = z.string().max(2048);
const filter = z.object({
  origin: origin.optional(),
  receiver: z.string().max(2048).optional(),
  state: z.enum(PAYMENT_STATES).optional(),
  from: z.number().int().optional(),
  to: z.number().int().optional(),
  text: z.string().max(256).optional(),
});

const schemas: { [M in UiMethod]: z.ZodType<UiMethods[M]["params"]> } = {
  ui_status: none,
  ui_getDiagnostics: none,
  ui_getBalances: none,
  ui_checkSettlements: none,
  ui_getState: none,
  ui_createWallet: z.object({
    password: secret,
    importPrivateKey: z.string().max(256).optional(),
  }),
  ui_unlock: z.object({ password: secret }),
  ui_lock: none,
  ui_changePassword: z.object({ oldPassword: secret, newPassword: secret }),
  ui_exportKey: z.object({ password: secret }),
  ui_confirmBackup: none,
  ui_setAutoLock: z.object({ minutes: z.number() }),
  ui_listPending: none,
  ui_showConfirmWindow: none,
  ui_decide: decideParamsSchema,
  ui_getSpend: z.object({ origin: origin.optional() }),
  ui_getPolicy: none,
  ui_setPolicy: policySchema as z.ZodType<PolicyView>,
  ui_listPayments: z.object({
    filter,
    offset: z.number().int().min(0),
    limit: z.number().int().min(1).max(1000),
    order: z.enum(["newest", "oldest"]).optional(),
  }),
  ui_spendBy: z.object({ filter }),
  ui_getPayment: z.object({ id: z.string().min(1).max(128) }),
  ui_spendPerDay: z.object({ filter, days: z.number().int().min(1).max(3660) }),
  ui_exportPayments: z.object({ filter, format: z.enum(["csv", "json"]) }),
  ui_deleteHistory: z.object({ confirm: z.literal(true) }),
  ui_getPricing: z.object({ origin }),
  ui_getPageOffer: z.object({ tabId: z.number().int().min(0) }),
  ui_payPage: z.object({ tabId: z.number().int().min(0), viewId: z.string().min(1).max(64) }),
};

/** The params of a wallet page's request, checked; throws InvalidParams naming the field. */
export function parseUiParams<M extends UiMethod>(
  method: M,
  params: unknown,
): UiMethods[M]["params"] {
  const result = schemas[method].safeParse(params);
  if (result.success) return result.data;
  throw invalidParams(method, result.error.issues[0]);
}
