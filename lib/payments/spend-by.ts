import type { WalletDb } from "../db/schema";
import type { PaymentFilter, SpendByTotal } from "../messages";
import type { PaymentState } from "../payment-states";
import { query } from "./history";

/** Payments whose money is gone or promised: what the totals count. */
const SPENT: ReadonlySet<PaymentState> = new Set(["signed", "settled"]);

type Totals = Map<string, SpendByTotal & { sum: bigint }>;

function add(totals: Totals, key: string, p: { symbol: string; decimals: number; amount: string }) {
  const id = `${key} ${p.symbol} ${p.decimals}`;
  const entry = totals.get(id) ?? {
    key,
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

/** Largest first; exact atomic sums per token. */
function sorted(totals: Totals): SpendByTotal[] {
  return [...totals.values()]
    .sort((a, b) => (a.sum === b.sum ? a.key.localeCompare(b.key) : a.sum > b.sum ? -1 : 1))
    .map(({ sum, ...total }) => ({ ...total, atomic: sum.toString() }));
}

/** What each site paid and each receiver was paid, over the payments the filter selects. */
export async function spendBy(
  db: WalletDb,
  filter: PaymentFilter,
): Promise<{ sites: SpendByTotal[]; receivers: SpendByTotal[] }> {
  const sites: Totals = new Map();
  const receivers: Totals = new Map();
  await query(db, filter).each((p) => {
    if (!SPENT.has(p.state)) return;
    add(sites, p.origin, p);
    add(receivers, p.receiver, p);
  });
  return { sites: sorted(sites), receivers: sorted(receivers) };
}
