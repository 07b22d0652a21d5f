import type { WalletDb } from "../db/schema";
import { ErrorCode, type McpServerReport, PROVIDER_VERSION } from "../messages";
import type { ApprovalQueue } from "../payments/approvals";
import type { DescriptorSource } from "../payments/descriptors";
import type { PaymentEngine } from "../payments/engine";
import { exportPayments, listPayments, paymentDetail } from "../payments/history";
import { fileReceipt } from "../payments/receipts";
import { spendPerDay, spendSummaries } from "../payments/spend";
import type { Registry } from "../protocol/rails/registry";
import type { KeyValueStore } from "../wallet/key-value-store";
import { deleteHistory } from "../wallet/ledger";
import type { PolicyStore } from "./policy-store";
import type { PageHandlers, UiHandlers } from "./router";
import { asInvalidQuote, RpcError } from "./rpc-error";
import type { WalletSession } from "./wallet-session";

/** storage.session: MCP servers' declared payments and price hints, with the origins that saw them. */
export const PRICING_KEY = "stipendex.pricing";

type PricingBook = Record<string, McpServerReport & { origins: string[] }>;

export interface WalletServices {
  db: WalletDb;
  session: KeyValueStore;
  registry: Registry;
  descriptors: DescriptorSource;
  engine: PaymentEngine;
  approvals: ApprovalQueue;
  policy: PolicyStore;
  wallet: WalletSession;
  extensionBaseUrl: string;
  now(): number;
}

async function pricingBook(session: KeyValueStore): Promise<PricingBook> {
  return ((await session.get(PRICING_KEY)) as PricingBook | undefined) ?? {};
}

export function createPageHandlers(s: WalletServices): PageHandlers {
  return {
    stipendex_status: async (_params, context) => ({
      version: PROVIDER_VERSION,
      origin: context.origin,
    }),
    stipendex_pay: async (params, context) => {
      if (typeof params?.requestId !== "string" || typeof params.challenge !== "object") {
        throw new RpcError(ErrorCode.InvalidParams, "stipendex_pay needs { requestId, challenge }");
      }
      const answer = await s.engine
        .pay(params, { origin: context.origin, tabId: context.tabId })
        .catch((error: unknown) => {
          throw asInvalidQuote(error);
        });
      await s.wallet.touch();
      return answer;
    },
    stipendex_receipt: async (params, context) => {
      const wallet = await s.wallet.current();
      return fileReceipt(
        {
          db: s.db,
          descriptors: s.descriptors,
          wallet: async () =>
            wallet ? { walletId: wallet.signingKey.walletId, address: wallet.address } : undefined,
          now: s.now,
        },
        params,
        context.origin,
      );
    },
    stipendex_elicit: async (params, context) =>
      s.engine
        .elicit(params, { origin: context.origin, tabId: context.tabId })
        .catch((error: unknown) => {
          throw asInvalidQuote(error);
        }),
    stipendex_reportMcpServer: async (report, context) => {
      if (typeof report?.server !== "string") {
        throw new RpcError(ErrorCode.InvalidParams, "A server report needs its server URL");
      }
      const book = await pricingBook(s.session);
      const known = book[report.server];
      book[report.server] = {
        server: report.server,
        ...(known?.stipendexPayments || report.stipendexPayments
          ? { stipendexPayments: report.stipendexPayments ?? known?.stipendexPayments }
          : {}),
        ...((report.tools ?? known?.tools)
          ? { tools: (report.tools ?? known?.tools)?.slice(0, 200) }
          : {}),
        origins: [...new Set([...(known?.origins ?? []), context.origin])],
      };
      await s.session.set(PRICING_KEY, book);
      return null;
    },
    stipendex_getPricing: async (params) => {
      const entry = (await pricingBook(s.session))[params?.server ?? ""];
      if (!entry) return null;
      const { origins: _origins, ...report } = entry;
      return report;
    },
  };
}

export function createUiHandlers(s: WalletServices): UiHandlers {
  return {
    ui_status: async () => ({ version: PROVIDER_VERSION, origin: s.extensionBaseUrl }),
    ui_getState: () => s.wallet.state(),
    ui_createWallet: async (params) => {
      if (await s.wallet.hasWallet()) {
        throw new RpcError(
          ErrorCode.InvalidRequest,
          "A wallet already exists in this browser profile",
        );
      }
      return s.wallet.create(params.password, params.importPrivateKey);
    },
    ui_unlock: (params) => s.wallet.unlock(params.password),
    ui_lock: () => s.wallet.lock(),
    ui_changePassword: async (params) => {
      await s.wallet.changePassword(params.oldPassword, params.newPassword);
      return null;
    },
    ui_exportKey: async (params) => ({ privateKey: await s.wallet.exportKey(params.password) }),
    ui_setAutoLock: (params) => s.wallet.setAutoLock(params.minutes),
    ui_listPending: async () => {
      const locked = (await s.wallet.current()) === undefined;
      return (await s.approvals.pending()).map((p) => ({ ...p, needsUnlock: locked }));
    },
    ui_decide: async (params) => {
      if (params.decision === "approve" && !(await s.wallet.current())) {
        throw new RpcError(ErrorCode.Locked, "Unlock the wallet before approving");
      }
      await s.approvals.decide(params);
      return null;
    },
    ui_getSpend: async (params) =>
      spendSummaries(s.db, await s.policy.settings(), s.now(), params?.origin),
    ui_getPolicy: () => s.policy.view(),
    ui_setPolicy: (params) => s.policy.save(params),
    ui_listPayments: (params) =>
      listPayments(s.db, s.registry, params.filter ?? {}, params.offset ?? 0, params.limit ?? 100),
    ui_getPayment: (params) => paymentDetail(s.db, s.registry, s.descriptors, params.id),
    ui_spendPerDay: async (params) =>
      spendPerDay(s.db, await s.policy.settings(), s.now(), params.days),
    ui_exportPayments: (params) =>
      exportPayments(s.db, s.registry, params.filter ?? {}, params.format),
    ui_deleteHistory: async (params) => {
      if (params?.confirm !== true) {
        throw new RpcError(ErrorCode.InvalidParams, "Deleting history needs { confirm: true }");
      }
      return { deleted: await deleteHistory(s.db) };
    },
    ui_getPricing: async (params) =>
      Object.values(await pricingBook(s.session))
        .filter((entry) => entry.origins.includes(params.origin))
        .map(({ origins: _origins, ...report }) => report),
  };
}
