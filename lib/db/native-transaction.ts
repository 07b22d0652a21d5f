import type { WalletDb } from "./schema";
import { countTransaction } from "./transaction-count";

/** The wallet's tables as IndexedDB object stores, for the one hot-path transaction. */
export type StoreName = "payments" | "counters" | "budgetSums";

/**
 * A native IndexedDB read-write transaction over the wallet database's own
 * stores, for the one place where Dexie's per-request overhead showed up in
 * the profile (an automatic payment's single transaction). `run` may issue
 * requests and await them with `requested` (it must await nothing else),
 * and `commit` once it has issued its last request.
 * Resolves with `run`'s result once the transaction has committed; rejects,
 * nothing written, if `run` throws or a request fails before `commit`. A
 * request failing after `commit` does not reliably abort (Firefox commits the
 * other writes): `run` commits only once none of its requests can fail, having
 * read first what a unique index would refuse.
 */
export async function nativeTransaction<T>(
  db: WalletDb,
  stores: readonly StoreName[],
  run: (stores: Record<StoreName, IDBObjectStore>, commit: () => void) => Promise<T>,
): Promise<T> {
  if (!db.isOpen()) await db.open();
  const transaction = db.backendDB().transaction([...stores], "readwrite");
  countTransaction("readwrite");
  const committed = new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () =>
      reject(transaction.error ?? new DOMException("aborted", "AbortError"));
  });
  const open = Object.fromEntries(stores.map((name) => [name, transaction.objectStore(name)]));
  let committing = false;
  let result: T;
  try {
    result = await run(open as Record<StoreName, IDBObjectStore>, () => {
      transaction.commit();
      committing = true;
    });
  } catch (error) {
    // Once committing, only a failed request can have failed `run`, and browsers run its
    // continuations before its error aborts the transaction: abort() would be refused then.
    if (!committing && !transaction.error) transaction.abort();
    await committed.catch(() => undefined);
    // A request aborted by another's failure only says so: that failure is the transaction's.
    throw error instanceof DOMException && error.name === "AbortError" && transaction.error
      ? transaction.error
      : error;
  }
  await committed;
  return result;
}

/** One request's result; continuations run while its transaction is still active. */
export function requested<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * Waits for `pending` (work outside the database: WebCrypto signing) without
 * letting the transaction commit meanwhile. A transaction with no request in
 * flight commits at the end of its task, so one small read of `key` is kept in
 * flight until `pending` settles. Resolves (or rejects) in a request's
 * continuation, where the transaction can still take requests; resolves
 * undefined once `patienceMs` have passed without `pending` settling, so a
 * hung computation does not hold the stores from every other transaction.
 */
export async function awaitKeepingOpen<T>(
  store: IDBObjectStore,
  key: IDBValidKey,
  pending: Promise<T>,
  patienceMs: number,
): Promise<{ value: T } | undefined> {
  let outcome: PromiseSettledResult<T> | undefined;
  pending.then(
    (value) => {
      outcome = { status: "fulfilled", value };
    },
    (reason: unknown) => {
      outcome = { status: "rejected", reason };
    },
  );
  const givesUpAt = performance.now() + patienceMs;
  // One microtask later: a `pending` already settled is seen without a read.
  await Promise.resolve();
  while (outcome === undefined) {
    if (performance.now() >= givesUpAt) return undefined;
    await requested(store.getKey(key));
  }
  if (outcome.status === "rejected") throw outcome.reason;
  return { value: outcome.value };
}
