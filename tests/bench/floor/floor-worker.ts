import { browser } from "wxt/browser";
import { servePagePort } from "../../../lib/background/page-port";
import { awaitKeepingOpen, nativeTransaction, requested } from "../../../lib/db/native-transaction";
import { type BudgetSum, type Counter, openWalletDb } from "../../../lib/db/schema";
import type { WireResponse } from "../../../lib/messages";
import { randomId } from "../../../lib/random-id";
import type { Operation } from "../bench";
import { stipendexProofSuite } from "../stipendex-proof";
import { type FloorKind, isFloorKind } from "./floor-kinds";

/**
 * The floor's service worker: the least a wallet with this one's guarantee does for an
 * automatic payment, on the wallet's own database schema, and nothing else (no price read,
 * no policy, no Dexie on the hot path, no receipt). Its ledger transaction is the shape of
 * lib/wallet/auto-payment.ts recordFromMemory: the lookups a payment must make (its request,
 * an elicitation of it, its Quote), the budget rows and the count read while the writes the
 * remembered sums imply go out with them; the payment added once signed; committed before
 * the answer leaves.
 */

/** Rows in the history, so that the lookups go through indexes of a used wallet's size. */
const HISTORY_ROWS = 4_000;
const ORIGIN = "http://127.0.0.1";
const RECEIVER = "https://api.example.com";
const DAY = new Date().toISOString().slice(0, 10);
const BUDGET_ROWS = ["global:USD", `origin:${ORIGIN}:USD`, `daily:USD:${DAY}`];

const db = openWalletDb("stipendex-floor");
let payments = 0;

/** A history row of about 2 KB, as a signed payment's (its Quote, Confirmation and Proof). */
function historyRow(createdAt: number, signatures: unknown) {
  return {
    id: randomId(),
    createdAt,
    updatedAt: createdAt,
    origin: ORIGIN,
    receiver: RECEIVER,
    state: "signed",
    quoteId: `${RECEIVER} ${randomId()}`,
    requestKey: `${ORIGIN} 1 0 ${randomId()}`,
    checkAt: createdAt + 60_000,
    offer: { quote: "q".repeat(700) },
    charge: { currency: "USD", amount: "5000" },
    signatures,
  };
}

const ready = (async () => {
  const counted = await db.counters.get("payments");
  payments = counted?.value ?? 0;
  if (payments >= HISTORY_ROWS) return;
  const now = Date.now();
  const rows = Array.from({ length: HISTORY_ROWS }, (_, i) =>
    historyRow(now - (HISTORY_ROWS - i) * 60_000, "s".repeat(1_600)),
  );
  await db.transaction("rw", db.payments, db.counters, async () => {
    await db.payments.bulkAdd(rows as never[]);
    await db.counters.put({ name: "payments", value: HISTORY_ROWS });
  });
  payments = HISTORY_ROWS;
})();

const signer: Promise<Operation> = (async () => {
  const [bench] = stipendexProofSuite.benches;
  if (!bench) throw new Error("the Stipendex Proof bench is gone");
  return bench.prepare();
})();

/** One payment's ledger transaction; `sign`, when given, runs while its reads are answered. */
async function charge(sign?: Operation): Promise<void> {
  const count = payments + 1;
  await nativeTransaction(db, ["payments", "counters", "budgetSums"], async (stores, commit) => {
    const { payments: rows, counters, budgetSums } = stores;
    const held = (index: string) =>
      requested(rows.index(index).getKey(`${ORIGIN} ${randomId()}`)).then((id) => id !== undefined);
    const checks = Promise.all([
      held("requestKey"),
      held("elicitedBy"),
      held("quoteId"),
      Promise.all(BUDGET_ROWS.map((key) => requested(budgetSums.get(key)))),
      requested<Counter | undefined>(counters.get("payments")),
    ]);
    const now = Date.now();
    const writes: Promise<unknown>[] = [
      requested(counters.put({ name: "payments", value: count } satisfies Counter)),
      ...BUDGET_ROWS.map((key) =>
        requested(
          budgetSums.put({
            key,
            periods: { day: { at: DAY, amount: String(count * 5_000) } },
            updatedAt: now,
          } satisfies BudgetSum),
        ),
      ),
    ];
    for (const write of writes) write.catch(() => undefined);
    const signing = sign?.();
    signing?.catch(() => undefined);
    const [request, elicited, quote, , counted] = await checks;
    if (request || elicited || quote || counted?.value !== payments) {
      throw new Error("the floor's ledger changed under it");
    }
    const signed = signing && (await awaitKeepingOpen(counters, "payments", signing, 2_000));
    if (signing && !signed) throw new Error("the signatures took too long");
    writes.push(requested(rows.add(historyRow(now, signed ? signed.value : null))));
    commit();
    await Promise.all(writes);
  });
  payments = count;
}

async function run(kind: FloorKind): Promise<null> {
  await ready;
  if (kind === "floor_ledger") await charge();
  if (kind === "floor_paid") await charge(await signer);
  return null;
}

async function route(message: unknown): Promise<WireResponse> {
  const method = (message as { method?: unknown } | null)?.method;
  if (!isFloorKind(method)) {
    return { ok: false, error: { code: -32601, message: `not a floor kind: ${String(method)}` } };
  }
  try {
    return { ok: true, result: await run(method) };
  } catch (error) {
    return { ok: false, error: { code: -32603, message: String(error) } };
  }
}

browser.runtime.onConnect.addListener((port) => servePagePort(port, route));
