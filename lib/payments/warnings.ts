import type { WalletDb } from "../db/schema";
import type { ApprovalWarning } from "../messages";

/** How many of a site's recent payments set its "usual" amount. */
const USUAL_SAMPLE = 20;
/** "Far above usual": this many times the site's median payment. */
const FAR_ABOVE_FACTOR = 10n;

export interface WarningInput {
  origin: string;
  receiver: string;
  /** Stipendex Quote verified under the receiver's descriptor (x402 offers are unsigned). */
  verified: boolean;
  amount: bigint;
  testnet: boolean;
}

/** What the confirmation window must make stand out about this payment. */
export async function paymentWarnings(
  db: WalletDb,
  input: WarningInput,
): Promise<ApprovalWarning[]> {
  const warnings: ApprovalWarning[] = [input.testnet ? "testnet" : "mainnet"];
  if (!input.verified) warnings.push("unverified-receiver");
  const paidBefore = await db.payments
    .where("[receiver+createdAt]")
    .between([input.receiver, 0], [input.receiver, Number.MAX_SAFE_INTEGER])
    .filter((p) => p.state === "signed" || p.state === "settled")
    .first();
  if (paidBefore === undefined) warnings.push("first-payment-to-receiver");
  const recent = await db.payments
    .where("[origin+createdAt]")
    .between([input.origin, 0], [input.origin, Number.MAX_SAFE_INTEGER])
    .reverse()
    .filter((p) => p.state === "signed" || p.state === "settled")
    .limit(USUAL_SAMPLE)
    .toArray();
  if (recent.length >= 3) {
    const amounts = recent
      .map((p) => BigInt(p.amount))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const median = amounts[Math.floor(amounts.length / 2)] ?? 0n;
    if (median > 0n && input.amount > median * FAR_ABOVE_FACTOR) warnings.push("far-above-usual");
  }
  return warnings;
}
