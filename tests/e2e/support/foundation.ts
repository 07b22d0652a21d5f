import assert from "node:assert/strict";
import { PROVIDER_VERSION } from "../../../lib/messages";

/**
 * The Foundation checks both browsers run. The page side lives in
 * fixtures/foundation.html and fixtures/checks.js; this module reads their
 * results and holds what they must be, so Chromium and Firefox are held to
 * the very same expectations.
 */
export const FOUNDATION_PAGE = "/foundation.html";

/** What both Playwright's and Puppeteer's pages offer: evaluate a string expression (promises awaited). */
export interface Evaluator {
  evaluate(expression: string): Promise<unknown>;
}

/** The top-of-head probe's result when the provider is installed and locked down. */
export const LOCKED_PROVIDER_PROBE = {
  type: "object",
  isStipendex: true,
  version: PROVIDER_VERSION,
  frozen: true,
  descriptor: { writable: false, configurable: false, enumerable: true },
  sloppyAssignKeeps: true,
  sloppyDeleteResult: false,
  sloppyDeleteKeeps: true,
  reflectSet: false,
  reflectDelete: false,
  strictAssign: "TypeError",
  strictDelete: "TypeError",
  defineProperty: "TypeError",
  defineGetter: "TypeError",
  setIsStipendex: "TypeError",
  setRequest: "TypeError",
  addField: "TypeError",
  final: {
    same: true,
    isStipendex: true,
    version: PROVIDER_VERSION,
    requestType: "function",
    keys: ["isStipendex", "request", "version"],
  },
};

export const ANNOUNCEMENTS = [
  {
    info: { name: "Stipendex Wallet", rdns: "dev.stipendex.wallet", version: PROVIDER_VERSION },
    sameProvider: true,
    detailFrozen: true,
  },
];

export const earlyProbe = (page: Evaluator) => page.evaluate("window.earlyProbe");
export const announcements = (page: Evaluator) => page.evaluate("window.announceProbe");
export const fetchBehaviour = (page: Evaluator) =>
  page.evaluate("window.foundationChecks.fetchBehaviour()") as Promise<FetchBehaviour>;
export const walletMessages = (page: Evaluator) =>
  page.evaluate("window.foundationChecks.walletMessages()") as Promise<WalletMessages>;

interface ResponseShape {
  status: number;
  statusText: string;
  url: string;
  headers: [string, string][];
  bodyIsStream: boolean;
}
type Settled = { resolved: unknown } | { rejected: { isTypeError: boolean; name: string } };
interface FetchBehaviour {
  hello: ResponseShape & { text: string };
  post: ResponseShape & { json: unknown };
  requestObject: ResponseShape & { json: unknown };
  stream: { response: ResponseShape; chunks: string[] };
  networkError: Settled;
  refusedConnection: Settled;
  aborted: Settled;
  notFound: ResponseShape;
}
interface WalletMessages {
  pageOrigin: string;
  status: unknown;
  statusWithFakeOrigin: unknown;
  uiMethodThroughProvider: { error?: { code?: number } };
  forgedUiStatus: { ok?: boolean; error?: { code?: number } };
  forgedUiChannel: { ok?: boolean; error?: { code?: number } };
}

/**
 * The fetch checks must give what the server really sent (so the comparison
 * below cannot pass by both runs being broken the same way) and be
 * deep-equal to the run without the wallet.
 */
export function assertFetchUnchanged(
  withWallet: FetchBehaviour,
  withoutWallet: FetchBehaviour,
  origin: string,
): void {
  assert.equal(withWallet.hello.status, 201);
  assert.equal(withWallet.hello.statusText, "Made Here");
  assert.equal(withWallet.hello.url, `${origin}/api/hello`);
  assert.equal(withWallet.hello.text, "hello, wörld");
  assert.deepEqual(
    withWallet.hello.headers.filter(([name]) => name.startsWith("x-")),
    [
      ["x-multi", "a, b"],
      ["x-test", "one"],
    ],
  );
  assert.deepEqual(withWallet.post.json, {
    method: "POST",
    contentType: "application/json",
    custom: "42",
    body: '{"amount":"1000","memo":"ünïcode"}',
  });
  assert.deepEqual(withWallet.requestObject.json, {
    method: "PUT",
    contentType: null,
    custom: null,
    body: "blob body",
  });
  // "last:acked" proves the page read the first chunk before the server sent the last.
  assert.deepEqual(withWallet.stream.chunks, ["first\n", "middle\n", "last:acked\n"]);
  assert.equal(withWallet.stream.response.bodyIsStream, true);
  for (const failure of [withWallet.networkError, withWallet.refusedConnection]) {
    assert.ok("rejected" in failure, `expected a rejection, got ${JSON.stringify(failure)}`);
    assert.equal(failure.rejected.isTypeError, true);
  }
  assert.ok("rejected" in withWallet.aborted);
  assert.equal(withWallet.aborted.rejected.name, "AbortError");
  assert.equal(withWallet.notFound.status, 404);
  assert.deepEqual(withWallet, withoutWallet);
}

const WALLET_REFUSALS = [-32601, 4100];

export function assertWalletMessages(messages: WalletMessages, origin: string): void {
  assert.equal(messages.pageOrigin, origin);
  const status = { result: { version: PROVIDER_VERSION, origin } };
  assert.deepEqual(messages.status, status);
  assert.deepEqual(messages.statusWithFakeOrigin, status);
  for (const answer of [
    messages.uiMethodThroughProvider,
    messages.forgedUiStatus,
    messages.forgedUiChannel,
  ]) {
    assert.ok(
      WALLET_REFUSALS.includes(answer.error?.code ?? 0),
      `expected a refusal (code -32601 or 4100), got ${JSON.stringify(answer)}`,
    );
  }
  assert.equal(messages.forgedUiStatus.ok, false);
  assert.equal(messages.forgedUiChannel.ok, false);
}
