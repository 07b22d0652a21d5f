import { getAddress } from "viem";
import { networksWithChangedEndpoint } from "../chain/rpc-endpoints";
import type { WalletDb } from "../db/schema";
import { ErrorCode, PROVIDER_VERSION } from "../messages";
import type { ApprovalQueue } from "../payments/approvals";
import type { BalanceBook } from "../payments/balance-book";
import { balanceRows } from "../payments/balance-view";
import type { DescriptorSource } from "../payments/descriptors";
import type { PaymentEngine } from "../payments/engine";
import { noWallet } from "../payments/errors";
import { exportPayments, listPayments, paymentDetail } from "../payments/history";
import { fileReceipt, type ReceiptDeps } from "../payments/receipts";
import { PASS_SIZE } from "../payments/settlement-tracker";
import { spendPerDay, spendSummaries } from "../payments/spend";
import { spendBy } from "../payments/spend-by";
import type { Caip2 } from "../protocol/offer";
import type { Registry } from "../protocol/rails/registry";
import type { KeyValueStore } from "../wallet/key-value-store";
import { deleteHistory, settlementChecksDueNow } from "../wallet/ledger";
import { writeItem } from "../wallet/storage-item";
import { diagnostics } from "./diagnostics";
import { LatestReads } from "./latest-reads";
import type { PageOfferMethod } from "./page-offers";
import type { PolicyStore } from "./policy-store";
import {
  fileServerReport,
  PRICING_ITEM,
  readPricingBook,
  reportOf,
  reportsOf,
} from "./pricing-book";
import type { PageHandlers, UiContext, UiHandlers } from "./router";
import { asInvalidQuote, RpcError } from "./rpc-error";
import type { SettlementSchedule } from "./settlement-schedule";
import type { WalletPlatform } from "./wallet-services";
import type { WalletSession } from "./wallet-session";

/**
 * How long after signing a payment the settlement tracker looks at it at the
 * latest (the alarm's own floor): the receipt of its paid retry usually asks
 * for that pass sooner.
 */
const LOOK_AFTER_PAYMENT_MS = 30_000;

export interface WalletServices {
  db: WalletDb;
  session: KeyValueStore;
  registry: Registry;
  descriptors: DescriptorSource;
  engine: PaymentEngine;
  approvals: ApprovalQueue;
  policy: PolicyStore;
  wallet: WalletSession;
  balances: BalanceBook;
  /** What filing a receipt needs: the paying wallet as it is now (undefined while locked). */
  receipts: ReceiptDeps;
  /** The JSON-RPC endpoint the wallet reads a network from, when it has one. */
  endpointFor(network: Caip2): Promise<string | undefined>;
  settlements: SettlementSchedule;
  injectMcpHook: WalletPlatform["injectMcpHook"];
  extensionBaseUrl: string;
  now(): number;
}

export function createPageHandlers(s: WalletServices): PageHandlers {
  return {
    stipendex_status: async (_params, context) => ({
      version: PROVIDER_VERSION,
      origin: context.origin,
    }),
    stipendex_pay: async (params, context) => {
      const answer = await s.engine.pay(params, context).catch((error: unknown) => {
        throw asInvalidQuote(error);
      });
      await s.wallet.touch();
      // Signed: if its page never reports back, the tracker still finds it (and gives its
      // charge back if never collected), however the alarm was left; a receipt's pass comes first.
      void s.settlements.lookBy(s.now() + LOOK_AFTER_PAYMENT_MS).catch(() => undefined);
      return answer;
    },
    stipendex_receipt: async (params, context) => {
      const filed = await fileReceipt(s.receipts, params, context.origin);
      // The claimed settlement (or the refusal) is checked on chain soon, not at the next alarm.
      s.settlements.soon();
      return filed;
    },
    stipendex_withdraw: async (params, context) => {
      await s.engine.withdraw(params.requestId, context);
      return null;
    },
    stipendex_elicit: async (params, context) => {
      const answer = await s.engine.elicit(params, context).catch((error: unknown) => {
        throw asInvalidQuote(error);
      });
      // Charged ahead of its payment: the tracker's alarm is armed for when its Quote expires.
      if (answer.action === "accept") s.settlements.soon();
      return answer;
    },
    stipendex_reportMcpServer: async (report, context) => {
      const book = fileServerReport(await readPricingBook(s.session), report, context.origin);
      await writeItem(s.session, PRICING_ITEM, book);
      return null;
    },
    stipendex_loadMcp: async (_params, context) => {
      // Only ever the asking frame itself, and only the wallet's own script.
      if (context.tabId === undefined || context.frameId === undefined) {
        throw new RpcError(ErrorCode.Unauthorized, "Only a frame in a tab can load the MCP hook");
      }
      await s.injectMcpHook({ tabId: context.tabId, frameId: context.frameId });
      return null;
    },
    stipendex_getPricing: async (params, context) =>
      reportOf(await readPricingBook(s.session), context.origin, params.server) ?? null,
  };
}

/** Which wallet page a long read is for: its tab, or the popup by its URL. */
function readerOf(context: UiContext): string {
  return context.tabId === undefined ? context.url : `tab ${context.tabId}`;
}

export function createUiHandlers(s: WalletServices): Omit<UiHandlers, PageOfferMethod> {
  // Each page's latest read of each kind: a new filter stops the reads of the one before.
  const totalsReads = new LatestReads();
  const chartReads = new LatestReads();
  return {
    ui_status: async () => ({ version: PROVIDER_VERSION, origin: s.extensionBaseUrl }),
    ui_getDiagnostics: async () => diagnostics(),
    ui_getBalances: async () => {
      const { address } = await s.wallet.state();
      if (!address) throw noWallet();
      const balances = await balanceRows(s, getAddress(address), await s.policy.settings());
      return { address, balances };
    },
    ui_checkSettlements: async () => {
      await settlementChecksDueNow(s.db, s.now(), PASS_SIZE);
      await s.settlements.run();
      return null;
    },
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
    ui_unlock: async (params) => {
      const state = await s.wallet.unlock(params.password);
      // Receipts that came while it was locked are checked now, with the opened keys.
      void s.settlements.run().catch(() => undefined);
      // And what waited only for it to be unlocked is paid, its budget permitting.
      await s.approvals.unlocked();
      return state;
    },
    ui_lock: () => s.wallet.lock(),
    ui_changePassword: async (params) => {
      await s.wallet.changePassword(params.oldPassword, params.newPassword);
      return null;
    },
    ui_exportKey: async (params) => ({ privateKey: await s.wallet.exportKey(params.password) }),
    ui_confirmBackup: () => s.wallet.confirmBackup(),
    ui_setAutoLock: (params) => s.wallet.setAutoLock(params.minutes),
    ui_showConfirmWindow: async () => {
      await s.approvals.show();
      return null;
    },
    ui_listPending: async () => {
      const locked = (await s.wallet.current()) === undefined;
      return (await s.approvals.pending()).map(({ tabId: _tab, byPerson: _byPerson, ...p }) => ({
        ...p,
        needsUnlock: locked,
      }));
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
    ui_setPolicy: async (params) => {
      const before = (await s.policy.view()).rpcEndpoints ?? {};
      const saved = await s.policy.save(params);
      const networks = networksWithChangedEndpoint(before, saved.rpcEndpoints ?? {});
      if (networks.size > 0) {
        // Payments waiting to ask those chains (an hour apart without an endpoint) ask the new one now.
        void settlementChecksDueNow(s.db, s.now(), PASS_SIZE, networks)
          .then(() => s.settlements.run())
          .catch(() => undefined);
      }
      return saved;
    },
    ui_listPayments: (params) =>
      listPayments(
        s.db,
        s.registry,
        params.filter ?? {},
        params.offset ?? 0,
        params.limit ?? 100,
        params.order,
      ),
    ui_spendBy: (params, context) =>
      totalsReads.run(readerOf(context), (signal) => spendBy(s.db, params.filter, { signal })),
    ui_getPayment: (params) => paymentDetail(s.db, s.registry, s.descriptors, params.id),
    ui_spendPerDay: (params, context) =>
      chartReads.run(readerOf(context), async (signal) =>
        spendPerDay(s.db, await s.policy.settings(), s.now(), params.days, params.filter, {
          signal,
        }),
      ),
    ui_exportPayments: (params) =>
      exportPayments(s.db, s.registry, params.filter ?? {}, params.format),
    ui_deleteHistory: async (params) => {
      if (params?.confirm !== true) {
        throw new RpcError(ErrorCode.InvalidParams, "Deleting history needs { confirm: true }");
      }
      return deleteHistory(s.db, s.now());
    },
    ui_getPricing: async (params) => reportsOf(await readPricingBook(s.session), params.origin),
  };
}
