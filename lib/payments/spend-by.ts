import type { ChargeRecord, PaymentRecord, WalletDb } from "../db/schema";
import type { PaymentFilter, SpendByTotal } from "../messages";
import { networkLabel } from "../protocol/rails/networks";
import { isTestnet } from "../wallet/test-money";
import { query } from "./history";

type Total = SpendByTotal & { sum: bigint };
type Totals = Map<string, Total>;

type Counted = Pick<PaymentRecord, "network" | "asset" | "symbol" | "decimals" | "amount">;

/**
 * One total per network and token: test money (a testnet's) is never added to
 * real money, nor one chain's token to another's.
 */
function add(totals: Totals, key: string, p: Counted) {
  const id = `${key} ${p.network} ${p.asset} ${p.symbol} ${p.decimals}`;
  const entry = totals.get(id) ?? {
    key,
    network: p.network,
    networkName: networkLabel(p.network),
    testnet: isTestnet(p.network),
    asset: p.asset,
    symbol: p.symbol,
    decimals: p.decimals,
    atomic: "0",
    count: 0,
    sum: 0n,
  };
  entry.sum += BigInt(p.amount);
  entry.count += 1;
  totals.set(id, entry);
}

/**
 * Real money before test money, then largest first in whole tokens: a sum in
 * an 18-decimal token is compared with one in a 6-decimal token as the person
 * reads them, not by their atomic units.
 */
function byShownSize(a: Total, b: Total): number {
  if (a.testnet !== b.testnet) return a.testnet ? 1 : -1;
  const decimals = Math.max(a.decimals, b.decimals);
  const shown = (t: Total) => t.sum * 10n ** BigInt(decimals - t.decimals);
  const [x, y] = [shown(a), shown(b)];
  return x === y ? a.key.localeCompare(b.key) : x > y ? -1 : 1;
}

/** Exact atomic sums per token, in the order byShownSize gives. */
function sorted(totals: Totals): SpendByTotal[] {
  return [...totals.values()]
    .sort(byShownSize)
    .map(({ sum, ...total }) => ({ ...total, atomic: sum.toString() }));
}

/**
 * Payments read per transaction. A long history is read in pieces: one read
 * over all of it (seconds at 100,000) would hold up every write made meanwhile,
 * a payment's charge included, and every read after that write.
 */
const PIECE = 2_000;

export interface PieceOptions {
  piece?: number;
  signal?: AbortSignal;
}

/**
 * Visits every payment the filter selects that holds a charge: what the budgets
 * count, whatever the state (a page may turn its own signed payment into failed,
 * yet it stays charged and collectable), and none whose charge was given back.
 * Read oldest first in pieces; an aborted `signal` stops the read before its
 * next piece, with the signal's reason.
 */
export async function forEachCharged(
  db: WalletDb,
  filter: PaymentFilter,
  visit: (payment: PaymentRecord & { charge: ChargeRecord }) => void,
  { piece = PIECE, signal }: PieceOptions = {},
): Promise<void> {
  // Each piece from the last one's newest time on, past the ones read at that time.
  let from = filter.from ?? 0;
  let readAtFrom = 0;
  for (;;) {
    signal?.throwIfAborted();
    const payments = await query(db, { ...filter, from }, "oldest")
      .offset(readAtFrom)
      .limit(piece)
      .toArray();
    for (const p of payments) if (isCharged(p)) visit(p);
    const last = payments.at(-1)?.createdAt;
    if (payments.length < piece || last === undefined) break;
    const atLast = payments.filter((p) => p.createdAt === last).length;
    readAtFrom = last === from ? readAtFrom + atLast : atLast;
    from = last;
  }
}

function isCharged(p: PaymentRecord): p is PaymentRecord & { charge: ChargeRecord } {
  return p.charge !== undefined;
}

/** What each site paid and each receiver was paid, over the payments forEachCharged visits. */
export async function spendBy(
  db: WalletDb,
  filter: PaymentFilter,
  options: PieceOptions = {},
): Promise<{ sites: SpendByTotal[]; receivers: SpendByTotal[] }> {
  const sites: Totals = new Map();
  const receivers: Totals = new Map();
  await forEachCharged(
    db,
    filter,
    (p) => {
      add(sites, p.origin, p);
      add(receivers, p.receiver, p);
    },
    options,
  );
  return { sites: sorted(sites), receivers: sorted(receivers) };
}
