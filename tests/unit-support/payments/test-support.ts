import { expect } from "vitest";
import type { WalletServices } from "../../../lib/background/handlers";
import type { PolicyStore } from "../../../lib/background/policy-store";
import { createWalletServices } from "../../../lib/background/wallet-services";
import type { WalletSession } from "../../../lib/background/wallet-session";
import { openWalletDb, type PaymentRecord, type WalletDb } from "../../../lib/db/schema";
import { StipendexError } from "../../../lib/errors";
import type { OriginBudgetView, PaymentChallenge, PolicyView } from "../../../lib/messages";
import type { ApprovalQueue, ApprovalWindow } from "../../../lib/payments/approvals";
import type { DescriptorSource } from "../../../lib/payments/descriptors";
import type { PaymentEngine } from "../../../lib/payments/engine";
import type { Caller } from "../../../lib/payments/engine-parts";
import { argsHash } from "../../../lib/protocol/canonical-json";
import { toJsonForm } from "../../../lib/protocol/envelope/json-form";
import { objectHash } from "../../../lib/protocol/envelope/object-hash";
import { type QuoteInput, signQuote } from "../../../lib/protocol/envelope/quote";
import type { ReceiptInput } from "../../../lib/protocol/envelope/receipt";
import type { Registry } from "../../../lib/protocol/rails/registry";
import { readHttp402 } from "../../../lib/protocol/x402/http";
import { encodeBase64Json } from "../../../lib/protocol/x402/wire";
import { randomId } from "../../../lib/random-id";
import type { KeyValueStore } from "../../../lib/wallet/key-value-store";
import { createVault, type UnlockedWallet, unlockVault } from "../../../lib/wallet/keyring";
import { recordQuote } from "../../../lib/wallet/ledger";
import { testCurrency } from "../../../lib/wallet/test-money";
import type { VaultRecord } from "../../../lib/wallet/vault";
import { saveSession, saveVault } from "../../../lib/wallet/vault-store";
import {
  makeReceiver,
  ORIGIN,
  quoteInput,
  RAIL,
  T,
  type TestReceiver,
} from "../protocol/envelope/test-fixtures";
import { readContext, v1Body, v2PaymentRequired } from "../protocol/x402/test-fixtures";
import { memoryStore } from "../wallet/memory-store";

/**
 * Shared set-up for the payment and background tests: real keys, real Dexie
 * (fake-indexeddb), memory storage areas. Only the network (descriptor fetch)
 * and the browser window are stand-ins, and both record what they were asked.
 */

/** A test waited for something that never happened. */
export class ConditionTimeoutError extends StipendexError {
  override name = "ConditionTimeoutError";
  constructor(tries: number) {
    super("condition-timeout", `The awaited condition did not hold after ${tries} checks`);
  }
}

export const AGENT = "https://agent.example";
export const RECEIVER = ORIGIN;
export const MCP_SERVER = `${RECEIVER}/mcp`;
export const X402_URL = "http://127.0.0.1:4021/weather";
export const PASSWORD = "correct horse battery staple";
export const CALLER: Caller = { origin: AGENT, tabId: 3 };

/** An origin budget that auto-approves up to 0.1 USD, 1 USD a day. */
export const AUTO_BUDGET: OriginBudgetView = {
  currency: "USD",
  amount: "1000000",
  period: "day",
  autoApproveUpTo: "100000",
  perCallMax: "500000",
};

/** The same in test money: what a site's budget is in for testnet tokens (x402 fixtures pay on Base Sepolia). */
export const TEST_AUTO_BUDGET: OriginBudgetView = { ...AUTO_BUDGET, currency: testCurrency("USD") };

let vault: Promise<{ vault: VaultRecord; unlocked: UnlockedWallet }> | undefined;

/** One vault per test file (PBKDF2 at 600k iterations is slow), reused by every harness. */
export function sharedVault(): Promise<{ vault: VaultRecord; unlocked: UnlockedWallet }> {
  vault ??= (async () => {
    const record = await createVault(PASSWORD);
    return { vault: record, unlocked: await unlockVault(record, PASSWORD) };
  })();
  return vault;
}

/** The network boundary: answers descriptor URLs from a map and counts the fetches. */
export function descriptorNetwork(descriptors: Record<string, unknown>) {
  const fetched: string[] = [];
  const fetchImpl = async (input: RequestInfo | URL): Promise<Response> => {
    const url = String(input);
    fetched.push(url);
    const body = descriptors[url];
    return body === undefined
      ? new Response("not found", { status: 404 })
      : new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
  };
  return { fetchImpl: fetchImpl as typeof fetch, fetched };
}

/**
 * The browser boundary: records windows opened, windows checked for, and the
 * waiting counts shown; a window stays open until closed.
 */
export function recordingWindow() {
  const opened: number[] = [];
  const checked: number[] = [];
  const counts: number[] = [];
  const closed: number[] = [];
  const focused: number[] = [];
  const open = new Set<number>();
  let next = 100;
  const window: ApprovalWindow = {
    open: async () => {
      next += 1;
      opened.push(next);
      open.add(next);
      return next;
    },
    exists: async (id) => {
      checked.push(id);
      return open.has(id);
    },
    showCount: async (count) => {
      counts.push(count);
    },
    close: async (id) => {
      closed.push(id);
      open.delete(id);
    },
    focus: async (id) => {
      focused.push(id);
    },
  };
  return {
    window,
    opened,
    checked,
    counts,
    closed,
    focused,
    close: (id: number) => open.delete(id),
  };
}

export interface Harness {
  db: WalletDb;
  local: KeyValueStore;
  session: KeyValueStore;
  registry: Registry;
  receiver: TestReceiver;
  descriptors: DescriptorSource;
  fetched: string[];
  policy: PolicyStore;
  wallet: WalletSession;
  unlocked: UnlockedWallet;
  approvals: ApprovalQueue;
  engine: PaymentEngine;
  endpointFor: WalletServices["endpointFor"];
  balances: WalletServices["balances"];
  settlements: WalletServices["settlements"];
  receipts: WalletServices["receipts"];
  windows: ReturnType<typeof recordingWindow>;
  scheduled: (number | undefined)[];
  /** When the settlement tracker's alarm was armed for, each time it was (undefined: disarmed). */
  settlementAlarms: (number | undefined)[];
  /** Frames the MCP hook was run in. */
  injected: { tabId: number; frameId: number }[];
  injectMcpHook(frame: { tabId: number; frameId: number }): Promise<void>;
  /** Milliseconds; tests move it. */
  clock: { ms: number };
  /** A new worker over the same storage and database: new queue, new engine, new session. */
  restart(): void;
}

let dbCount = 0;

/**
 * A wallet with one funded-in-principle vault, the default policy (plus
 * `policy` overrides) and a Stipendex receiver at RECEIVER, unlocked unless
 * `locked` is set.
 */
export async function makeHarness(
  options: { policy?: Partial<PolicyView>; locked?: boolean } = {},
): Promise<Harness> {
  const { vault: record, unlocked } = await sharedVault();
  dbCount += 1;
  const db = openWalletDb(`test-${dbCount}-${randomId()}`);
  const local = memoryStore();
  const session = memoryStore();
  await saveVault(local, record);
  if (!options.locked) await saveSession(session, unlocked);
  const receiver = await makeReceiver();
  const { fetchImpl, fetched } = descriptorNetwork({
    [`${RECEIVER}/.well-known/stipendex.json`]: receiver.descriptor,
  });
  const clock = { ms: T * 1000 };
  const windows = recordingWindow();
  const scheduled: (number | undefined)[] = [];
  const settlementAlarms: (number | undefined)[] = [];
  const injected: { tabId: number; frameId: number }[] = [];
  const injectMcpHook = async (frame: { tabId: number; frameId: number }) => {
    injected.push(frame);
  };
  // What a (re)started background worker builds: the same wiring as entrypoints/background.ts.
  const services = () =>
    createWalletServices({
      db,
      local,
      session,
      fetch: fetchImpl,
      window: windows.window,
      scheduleLock: async (at) => {
        scheduled.push(at);
      },
      injectMcpHook,
      scheduleSettlementCheck: async (at) => {
        settlementAlarms.push(at);
      },
      builtRpcEndpoints: {},
      extensionBaseUrl: "chrome-extension://wallet/",
      now: () => clock.ms,
    });
  const started = services();
  if (options.policy) {
    await started.policy.save({ ...(await started.policy.view()), ...options.policy });
  }
  const harness: Harness = {
    ...started,
    local,
    receiver,
    fetched,
    unlocked,
    windows,
    scheduled,
    settlementAlarms,
    injected,
    clock,
    restart: () => {
      Object.assign(harness, services());
    },
  };
  return harness;
}

/** Signs a Quote for `resource` with the receiver's key (a fresh jti unless given). */
export function quoteFor(
  receiver: TestReceiver,
  overrides: Partial<QuoteInput> = {},
): Promise<string> {
  return signQuote(quoteInput({ jti: randomId(), ...overrides }), receiver.key);
}

/** A Stipendex HTTP 402 as the hook reports it: the Quote's JSON form in the body. */
export async function stipendexHttpChallenge(
  receiver: TestReceiver,
  overrides: Partial<QuoteInput> = {},
): Promise<{ challenge: PaymentChallenge; jws: string }> {
  const jws = await quoteFor(receiver, overrides);
  const url = `${RECEIVER}/search?q=x`;
  return {
    jws,
    challenge: {
      transport: "http",
      url,
      method: "GET",
      body: JSON.stringify({ error: "payment required", quote: toJsonForm("quote", jws) }),
      paymentRequiredHeader: null,
    },
  };
}

/** A Stipendex MCP -32402 for tool `search` with `args`. */
/** The tools/call a default `stipendexMcpChallenge` prices: an elicitation of its Quote comes during it. */
export const SEARCH_CALL = { tool: "search", arguments: { q: "x" } };

export async function stipendexMcpChallenge(
  receiver: TestReceiver,
  args: unknown = { q: "x" },
  overrides: Partial<QuoteInput> = {},
): Promise<{ challenge: PaymentChallenge; jws: string }> {
  const jws = await quoteFor(receiver, {
    resource: { mcp: { server: MCP_SERVER, tool: "search", argsHash: await argsHash(args) } },
    ...overrides,
  });
  return {
    jws,
    challenge: {
      transport: "mcp",
      server: MCP_SERVER,
      tool: "search",
      arguments: args,
      error: {
        code: -32402,
        message: "Payment required",
        data: { quote: toJsonForm("quote", jws) },
      },
    },
  };
}

/** x402 v1 (JSON body) and v2 (PAYMENT-REQUIRED header) 402s from the x402 fixtures. */
export function x402HttpChallenge(version: 1 | 2): PaymentChallenge {
  return {
    transport: "http",
    url: X402_URL,
    method: "GET",
    body: version === 1 ? JSON.stringify(v1Body) : "{}",
    paymentRequiredHeader: version === 1 ? null : encodeBase64Json(v2PaymentRequired),
  };
}

const x402Offer = readHttp402(
  { headers: { get: () => null }, body: JSON.stringify(v1Body) },
  readContext(),
);

/** The fields a seeded payment may differ in; the rest is the x402 v1 fixture (0.01 USDC, Base Sepolia). */
export type SeedFields = Partial<
  Pick<PaymentRecord, "origin" | "receiver" | "state" | "reason" | "receipt" | "amount">
> & { createdAt: number };

/** Records a payment through the ledger (so its counts hold), then gives it the state asked for. */
export async function seedPayment(db: WalletDb, fields: SeedFields): Promise<PaymentRecord> {
  const {
    createdAt,
    origin = "https://a.example",
    receiver = "https://r1.example",
    ...rest
  } = fields;
  const option = x402Offer.options[0];
  if (!option) return expect.unreachable("the x402 fixture offers no option");
  const recorded = await recordQuote(db, { origin, receiver, offer: x402Offer, option }, createdAt);
  await db.payments.update(recorded.id, rest);
  return { ...recorded, ...rest };
}

/** Resolves once `condition` holds, checking between macrotasks (storage and Dexie are async). */
export async function until(
  condition: () => Promise<boolean> | boolean,
  tries = 200,
): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("condition never held");
}

/** The transaction the Receipts of signedStipendex name. */
export const RECEIPT_TX = `0x${"ab".repeat(32)}` as const;

/** One more payment of `h`'s receiver, signed, and the claims of a valid Receipt for it. */
export async function signedStipendex(h: Harness, requestId: string) {
  const { challenge } = await stipendexHttpChallenge(h.receiver);
  const answer = await h.engine.pay({ requestId, challenge }, CALLER);
  const payment = await h.db.payments.get(answer.paymentId);
  if (!payment?.proof || !payment.offer.quote) return expect.unreachable("not signed");
  const claims = {
    iss: RECEIVER,
    sub: h.unlocked.signingKey.walletId,
    jti: "rcpt-1",
    iat: T,
    qh: payment.offer.quote.hash,
    ph: await objectHash(payment.proof),
    status: "settled",
    settlement: {
      network: RAIL.network,
      transaction: RECEIPT_TX,
      amount: RAIL.amount,
      asset: RAIL.asset,
      payer: h.unlocked.address,
    },
  } satisfies ReceiptInput;
  return { payment, claims };
}
