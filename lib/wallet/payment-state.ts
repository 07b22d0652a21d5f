import type { PaymentState } from "../payment-states";
import { WalletError } from "./errors";

/**
 * quoted → approved | declined → signed → settled | failed | expired.
 * Also: a quote or approval may be refused (policy or the ledger's cap re-check) or
 * expire while a person is still deciding. After signing, the chain has the last
 * word: a payment the receiver refused (failed) may still be collected (settled),
 * and one whose authorization ran out unused expires even if a receiver claimed to
 * have settled it. declined, refused and expired are final. One move goes back,
 * and only the chain makes it (assertSettlementUndone): settled → signed.
 */
const NEXT: Record<PaymentState, readonly PaymentState[]> = {
  quoted: ["approved", "declined", "refused", "expired"],
  approved: ["signed", "refused", "expired"],
  signed: ["settled", "failed", "expired"],
  declined: [],
  refused: [],
  settled: ["expired"],
  failed: ["settled", "expired"],
  expired: [],
};

export function canTransition(from: PaymentState, to: PaymentState): boolean {
  return NEXT[from].includes(to);
}

export function assertTransition(id: string, from: PaymentState, to: PaymentState): void {
  if (!canTransition(from, to)) {
    throw new WalletError(
      "invalid-transition",
      `payment ${id} cannot go from "${from}" to "${to}"`,
    );
  }
}

/**
 * settled → signed, the one move back: the block that held a payment's
 * settlement was undone by a reorganization before it was final, so the
 * chain no longer shows the money moved. Only the settlement tracker makes
 * it; a receiver's word never takes a settled payment anywhere but expired.
 */
export function assertSettlementUndone(id: string, from: PaymentState): void {
  if (from !== "settled") {
    throw new WalletError(
      "invalid-transition",
      `payment ${id} cannot go from "${from}" back to "signed": only a settled one is undone`,
    );
  }
}
