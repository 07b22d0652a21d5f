import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { PROVIDER_VERSION } from "../../../lib/messages";
import { startServer, type TestServer } from "./server";

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
    keys: [
      "elicit",
      "errorCodes",
      "fetch",
      "getPricing",
      "isStipendex",
      "pay",
      "request",
      "version",
    ],
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
/** The window's own property names, sorted: what the page's global scope holds. */
export const globalNames = (page: Evaluator) =>
  page.evaluate("Object.getOwnPropertyNames(window).sort()") as Promise<string[]>;
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
  // One header differs: the wallet's rule exposes the payment headers on every fetch answer.
  const exposed: [string, string] = ["access-control-expose-headers", exposedPaymentHeaders()];
  assert.deepEqual(
    withWallet.hello.headers.find(([name]) => name === exposed[0]),
    exposed,
  );
  assert.deepEqual(withoutHeader(withWallet, exposed), withoutWallet);
}

/** The header names the wallet's own rule exposes (public/rules/expose-payment-headers.json). */
function exposedPaymentHeaders(): string {
  const [rule] = JSON.parse(readFileSync("public/rules/expose-payment-headers.json", "utf8")) as {
    action: { responseHeaders: { value: string }[] };
  }[];
  return rule?.action.responseHeaders[0]?.value ?? "";
}

/** `behaviour` with the header `[name, value]` left out of every header list it holds. */
function withoutHeader(behaviour: FetchBehaviour, [name, value]: [string, string]): FetchBehaviour {
  return JSON.parse(JSON.stringify(behaviour), (_key, held: unknown) =>
    Array.isArray(held)
      ? held.filter((pair) => !(Array.isArray(pair) && pair[0] === name && pair[1] === value))
      : held,
  ) as FetchBehaviour;
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

/** One browser's side of the Foundation suite: pages with and without the wallet, and its popup. */
export interface FoundationBrowser {
  /** The Foundation page, loaded with the wallet and without it. */
  page: Evaluator;
  plainPage: Evaluator;
  /** Opens the wallet's popup page; resolves with the text of its first-run button, once rendered. */
  popupButtonText(): Promise<string>;
  close(): Promise<void>;
}

/** The first control a fresh profile's popup shows: onboarding's first choice. */
export const FIRST_RUN_BUTTON = "Create a new wallet";

/**
 * Registers the Foundation checks for one browser. `open` launches it (with
 * and without the wallet) on the served Foundation page; `extra` adds checks
 * only that browser can make.
 */
export function describeFoundation(
  browserName: string,
  timeoutMs: number,
  open: (server: TestServer) => Promise<FoundationBrowser>,
  extra?: (get: () => { browser: FoundationBrowser; server: TestServer }) => void,
): void {
  describe(`Foundation in ${browserName}`, { timeout: timeoutMs }, () => {
    let server: TestServer;
    let browser: FoundationBrowser | undefined;
    const get = () => {
      assert.ok(browser, `${browserName} did not start`);
      return { browser, server };
    };

    before(
      async () => {
        server = await startServer();
        browser = await open(server);
      },
      { timeout: timeoutMs },
    );

    after(async () => {
      await Promise.allSettled([browser?.close(), server?.close()]);
    });

    it("defines a locked window.stipendex before the page's first inline script", async () => {
      assert.deepEqual(await earlyProbe(get().browser.page), LOCKED_PROVIDER_PROBE);
      assert.deepEqual(await earlyProbe(get().browser.plainPage), { type: "undefined" });
    });

    it("adds no global to the page but window.stipendex (a page may declare its own `hook`)", async () => {
      const withWallet = await globalNames(get().browser.page);
      const withoutWallet = new Set(await globalNames(get().browser.plainPage));
      assert.deepEqual(
        withWallet.filter((name) => !withoutWallet.has(name)),
        ["stipendex"],
      );
    });

    it("announces the provider when the page asks for it", async () => {
      assert.deepEqual(await announcements(get().browser.page), ANNOUNCEMENTS);
      assert.deepEqual(await announcements(get().browser.plainPage), []);
    });

    it("leaves the page's fetch exactly as it is without the wallet", async () => {
      const withWallet = await fetchBehaviour(get().browser.page);
      const withoutWallet = await fetchBehaviour(get().browser.plainPage);
      assertFetchUnchanged(withWallet, withoutWallet, server.origin);
    });

    it("relays page requests to the background and answers for the real origin only", async () => {
      assertWalletMessages(await walletMessages(get().browser.page), server.origin);
    });

    it("renders the popup", async () => {
      assert.equal(await get().browser.popupButtonText(), FIRST_RUN_BUTTON);
    });

    extra?.(get);
  });
}
