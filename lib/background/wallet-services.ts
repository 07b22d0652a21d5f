import { getAddress } from "viem";
import { readBalances } from "../chain/balances";
import { rpcEndpointFor } from "../chain/rpc-endpoints";
import type { WalletDb } from "../db/schema";
import { browserSessionStartedAt, endAbandonedAsks } from "../payments/abandoned-asks";
import { ApprovalQueue, type ApprovalWindow } from "../payments/approvals";
import { BalanceBook } from "../payments/balance-book";
import { pendingAmounts, tokenKey } from "../payments/balance-view";
import { createDescriptorSource } from "../payments/descriptors";
import { PaymentEngine } from "../payments/engine";
import { fileHeldReceipts, type ReceiptDeps } from "../payments/receipts";
import { NodeBackoff, trackSettlements } from "../payments/settlement-tracker";
import type { Caip2 } from "../protocol/offer";
import { createRegistry } from "../protocol/rails/registry";
import { PayeeApprovals } from "../wallet/approved-payees";
import { type KeyValueStore, settingsTableStore } from "../wallet/key-value-store";
import type { WalletServices } from "./handlers";
import { PolicyStore } from "./policy-store";
import { readPricingBook, reportOf } from "./pricing-book";
import { SettlementSchedule } from "./settlement-schedule";
import { WalletSession } from "./wallet-session";

/** What the wallet needs from the browser it runs in; tests pass in-memory equivalents. */
export interface WalletPlatform {
  db: WalletDb;
  /** storage.local and storage.session. */
  local: KeyValueStore;
  session: KeyValueStore;
  /** Fetches receivers' descriptors (from the background, never the page). */
  fetch: typeof fetch;
  /** The confirmation window. */
  window: ApprovalWindow;
  /** Arms (or, with undefined, disarms) the auto-lock alarm. */
  scheduleLock(at: number | undefined): Promise<void>;
  /** Arms (or, with undefined, disarms) the alarm of the next settlement check. */
  scheduleSettlementCheck(at: number | undefined): Promise<void>;
  /** JSON-RPC endpoints this build brings (the demo chain's, from WXT_DEMO_RPC), by network. */
  builtRpcEndpoints: Partial<Record<Caip2, string>>;
  /** Runs the page hook's MCP half (entrypoints/mcp-hook.ts) in one frame's page world. */
  injectMcpHook(frame: { tabId: number; frameId: number }): Promise<void>;
  extensionBaseUrl: string;
  now(): number;
}

/** Wires the wallet's parts together once, for the background and for tests alike. */
export function createWalletServices(platform: WalletPlatform): WalletServices {
  const { db, local, session, now } = platform;
  const registry = createRegistry();
  const descriptors = createDescriptorSource(platform.fetch, now);
  const policy = new PolicyStore(db, local);
  const wallet = new WalletSession({
    local,
    session,
    settings: settingsTableStore(db),
    now,
    scheduleLock: platform.scheduleLock,
  });
  const approvals = new ApprovalQueue(session, platform.window, now);
  const endpointFor = async (network: Caip2) =>
    rpcEndpointFor(network, (await policy.view()).rpcEndpoints ?? {}, platform.builtRpcEndpoints);
  const balances = new BalanceBook({
    now,
    read: async (network, asset) => {
      const { address } = await wallet.state();
      const url = await endpointFor(network);
      if (!address || !url) return undefined;
      const token = { network, asset, symbol: "", decimals: 0 };
      const [read] = await readBalances(getAddress(address), [token], () => url);
      if (read?.amount === undefined) return undefined;
      return read.amount - ((await pendingAmounts(db)).get(tokenKey(network, asset)) ?? 0n);
    },
  });
  const engine = new PaymentEngine({
    db,
    registry,
    approvals,
    challenge: { registry, descriptors, now },
    settings: () => policy.settings(),
    updateSettings: (change) => policy.update(change),
    wallet: () => wallet.current(),
    walletOpen: (opened) => wallet.isOpen(opened),
    hasWallet: () => wallet.hasWallet(),
    serverReport: async (origin, server) =>
      reportOf(await readPricingBook(session), origin, server),
    payees: new PayeeApprovals(settingsTableStore(db)),
    trustedRegistries: async () => (await policy.view()).trustedRegistries,
    fetch: platform.fetch,
    balances,
    now,
  });
  const receipts: ReceiptDeps = {
    db,
    descriptors,
    wallet: async () => {
      const opened = await wallet.current();
      return opened && { walletId: opened.signingKey.walletId, address: opened.address };
    },
    now,
  };
  const nodeBackoff = new NodeBackoff();
  // Read as the worker starts: the first of a browser session marks when it began.
  // Unreadable: only the hour's rule ends asks.
  const sessionStart = browserSessionStartedAt(session, now()).catch(() => 0);
  const settlements = new SettlementSchedule({
    track: async () => {
      await fileHeldReceipts(receipts);
      await endAbandonedAsks(
        db,
        () => approvals.pending(),
        now(),
        await sessionStart,
        (payment) => engine.inHand(payment),
      );
      return trackSettlements({
        db,
        endpointFor,
        now,
        backoff: nodeBackoff,
        released: () => {
          engine.chargesChanged();
          balances.forget();
        },
        // A settlement undone: the payment is pending again (its charge never left the sums).
        unsettled: () => balances.forget(),
      });
    },
    schedule: platform.scheduleSettlementCheck,
  });
  return {
    db,
    session,
    registry,
    descriptors,
    engine,
    approvals,
    policy,
    wallet,
    balances,
    receipts,
    endpointFor,
    settlements,
    injectMcpHook: platform.injectMcpHook,
    extensionBaseUrl: platform.extensionBaseUrl,
    now,
  };
}
