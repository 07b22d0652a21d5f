import { readBalances } from "../chain/balances";
import type { PaymentRecord, WalletDb } from "../db/schema";
import { AWAITS_UNLOCK, awaitsSettlement } from "../db/settlement-due";
import type { BalanceRow } from "../messages";
import type { Address, Caip2 } from "../protocol/offer";
import { knownNetwork, networkLabel } from "../protocol/rails/networks";
import type { PolicySettings } from "../wallet/policy-settings";
import { chargeCurrency } from "../wallet/test-money";
import { claimedTransactionOf } from "./settlement-tracker";

/**
 * How long the popup waits for a network: a person looks at it now, and a
 * public endpoint that is down (or a machine offline) would otherwise hold
 * every other network's balance back. A nearby node answers in milliseconds.
 */
export const BALANCE_VIEW_TIMEOUT_MS = 2_000;

export interface BalanceDeps {
  db: WalletDb;
  endpointFor(network: Caip2): Promise<string | undefined>;
  fetchFn?: typeof fetch;
}

/**
 * The paying address's balance of each token the settings count, on each
 * enabled network, beside what is signed away but not yet collected (those
 * authorizations can still take it): what the person can still spend.
 */
export async function balanceRows(
  deps: BalanceDeps,
  owner: Address,
  settings: Pick<PolicySettings, "networks" | "assets">,
): Promise<BalanceRow[]> {
  const tokens = settings.assets.filter((asset) => settings.networks.includes(asset.network));
  const endpoints = new Map(
    await Promise.all(
      [...new Set(tokens.map((token) => token.network))].map(
        async (network) => [network, await deps.endpointFor(network)] as const,
      ),
    ),
  );
  const [read, pending] = await Promise.all([
    readBalances(owner, tokens, (network) => endpoints.get(network), {
      timeoutMs: BALANCE_VIEW_TIMEOUT_MS,
      ...(deps.fetchFn ? { fetchFn: deps.fetchFn } : {}),
    }),
    pendingAmounts(deps.db),
  ]);
  return read.map((balance, i) => {
    const token = tokens[i];
    const network = knownNetwork(balance.network);
    return {
      network: balance.network,
      networkName: networkLabel(balance.network),
      testnet: network?.testnet ?? true,
      asset: balance.asset,
      symbol: balance.symbol,
      decimals: balance.decimals,
      // Test money counts apart ("test USD"), as in caps and budgets: never added to real money.
      ...(token?.currency ? { currency: chargeCurrency(token.currency, balance.network) } : {}),
      ...(balance.amount === undefined
        ? { problem: balance.problem }
        : { amount: balance.amount.toString() }),
      pending: (pending.get(tokenKey(balance.network, balance.asset)) ?? 0n).toString(),
    };
  });
}

/**
 * Whether the receiver said it collected the payment: its Receipt says
 * "settled", or its x402 settle response (which keeps the payment signed)
 * names the transaction. An "accepted" Receipt's settlement is still to come.
 */
function onReceiversWord(payment: PaymentRecord): boolean {
  if (payment.state === "settled") return true;
  return (
    payment.state === "signed" &&
    payment.offer.quote === undefined &&
    claimedTransactionOf(payment) !== undefined
  );
}

/** The key `pendingAmounts` files a token under. */
export const tokenKey = (network: string, asset: string) => `${network} ${asset.toLowerCase()}`;

/**
 * Per token (see tokenKey): what charged payments the chain has not shown
 * collected may still take. A receiver's word that it collected one
 * (onReceiversWord) counts only until the settlement tracker first
 * asks the chain (at once, as it is filed): the balance read then already
 * shows an honest one's transfer, and a forged one (a page can send an
 * unsigned x402 success) is pending again once the chain does not show it.
 * Each has a `checkAt` until then, so only those are read.
 */
export async function pendingAmounts(db: WalletDb): Promise<Map<string, bigint>> {
  const open = await db.payments
    .where("checkAt")
    .aboveOrEqual(AWAITS_UNLOCK)
    .filter(
      (payment) =>
        awaitsSettlement(payment) &&
        !(payment.settlement === undefined && onReceiversWord(payment)),
    )
    .toArray();
  const sums = new Map<string, bigint>();
  for (const payment of open) {
    const key = tokenKey(payment.network, payment.asset);
    sums.set(key, (sums.get(key) ?? 0n) + BigInt(payment.amount));
  }
  return sums;
}
