import { STORAGE_KEYS } from "../storage-keys";
import type { KeyValueStore } from "./key-value-store";
import { readItem, storageItem, writeItem } from "./storage-item";

/**
 * By desktop app (a `proxy:` caller), the accounts (`<network>:<address>`,
 * lower case) the person approved it to pay with a price nobody signed (x402).
 */
export type ApprovedPayees = Record<string, string[]>;

/** Settings table: the payees the person approved for each desktop app. */
export const APPROVED_PAYEES_ITEM = storageItem<ApprovedPayees>(
  STORAGE_KEYS.approvedPayees,
  (stored) => {
    if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return undefined;
    const entries = Object.entries(stored).filter(
      (entry): entry is [string, string[]] =>
        Array.isArray(entry[1]) && entry[1].every((account) => typeof account === "string"),
    );
    return Object.fromEntries(entries);
  },
);

/** How many payees are kept for one desktop app, and how many desktop apps; the oldest go first. */
const MAX_PAYEES = 64;
const MAX_CALLERS = 64;

/**
 * The payees each desktop app may pay under its budget without asking. Any
 * process of the person's user can connect as a desktop app and say which
 * server it forwards to; with a price nobody signed it also says whom to pay.
 * So its budget pays such a price automatically only to an account the person
 * approved for it once, in the window; a Stipendex Quote is signed by the
 * server's own key and needs none of this. Read once, kept in memory.
 */
export class PayeeApprovals {
  private payees: Promise<ApprovedPayees> | undefined;

  constructor(private readonly store: KeyValueStore) {}

  async approved(caller: string, account: string): Promise<boolean> {
    return (await this.read())[caller]?.includes(account.toLowerCase()) ?? false;
  }

  /** Adds `account` to what `caller` may pay (kept as the latest). */
  approve(caller: string, account: string): Promise<void> {
    const payee = account.toLowerCase();
    // Chained on the read: two approvals at once both land.
    const written = this.read().then(async (payees) => {
      const kept = (payees[caller] ?? []).filter((known) => known !== payee);
      const { [caller]: _replaced, ...others } = payees;
      const callers = Object.entries(others).slice(-(MAX_CALLERS - 1));
      const next = Object.fromEntries([...callers, [caller, [...kept, payee].slice(-MAX_PAYEES)]]);
      await writeItem(this.store, APPROVED_PAYEES_ITEM, next);
      return next;
    });
    this.payees = written.catch(() => this.fresh());
    return written.then(() => undefined);
  }

  private read(): Promise<ApprovedPayees> {
    this.payees ??= this.fresh();
    return this.payees;
  }

  private async fresh(): Promise<ApprovedPayees> {
    return (await readItem(this.store, APPROVED_PAYEES_ITEM)) ?? {};
  }
}
