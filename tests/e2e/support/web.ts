import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { describe, it } from "node:test";
import { type Demo, HTTP_PRICES } from "../../../demo/server";
import { type BuildTarget, builtExtension } from "./builds";
import {
  assertNothingSigned,
  assertSettled,
  assertWithdrawn,
  demoRig,
  mcpPath,
  newRows,
  type PaymentBrowser,
  type PaymentRig,
  runAgentButton,
  type Snapshot,
  snapshot,
  type Tab,
} from "./payments";
import { waitUntil } from "./wait";

/**
 * The checks both browsers run for what the wallet pays beyond `fetch`:
 * XMLHttpRequest, and top-level pages behind an x402 paywall.
 */

export interface WebBrowser extends PaymentBrowser {
  /** A wallet page: extension APIs in reach. */
  walletTab: Tab;
  nextWalletWindow(path: string): Promise<Tab>;
}

/** What the page's XHR saw: each event as `type:readyState:status`, and its final state. */
interface XhrOutcome {
  seen: string[];
  status: number;
  receipt: string | null;
  body: unknown;
}

/**
 * A page script: one async XHR to `url` with `responseType`, its handlers set
 * the ways pages set them (a handler property before open(), listeners, and
 * onloadend after), resolving with what the page saw.
 */
function xhrScript(url: string, responseType: "" | "json") {
  return `new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    const seen = [];
    const note = (event) => seen.push(event.type + ":" + xhr.readyState + ":" + xhr.status);
    xhr.onreadystatechange = note;
    for (const type of ["loadstart", "progress", "load", "error", "abort", "timeout", "loadend"]) {
      xhr.addEventListener(type, note);
    }
    xhr.open("GET", ${JSON.stringify(url)});
    xhr.responseType = ${JSON.stringify(responseType)};
    xhr.onloadend = () => resolve({
      seen,
      status: xhr.status,
      receipt: xhr.getResponseHeader("PAYMENT-RESPONSE"),
      body: xhr.responseType === "json" ? xhr.response : xhr.responseText,
    });
    xhr.send();
  })`;
}

/** Runs an XHR script in the agent page while the person presses `button` in the window it opens. */
async function xhrDecided(rig: PaymentRig, script: string, button: "Approve" | "Decline") {
  const [outcome] = await Promise.all([
    rig.agent.evaluate(script),
    rig.nextConfirmWindow().then((window) => window.click(button)),
  ]);
  return outcome as XhrOutcome;
}

/** Consecutive repeats dropped: a browser may fire loading's readystatechange and progress more than once. */
const steps = (seen: string[]) => seen.filter((entry, i) => entry !== seen[i - 1]);

/** `type:readyState:status` with the status replaced, to compare event orders of different answers. */
const shape = (seen: string[]) => steps(seen).map((entry) => entry.replace(/:\d+$/, ""));

const extensionApi = "(globalThis.browser ?? globalThis.chrome)";

async function poll<T>(
  read: () => Promise<T | undefined | null>,
  what: string,
  timeoutMs = 20_000,
) {
  let value: T | undefined | null;
  let running = false;
  await waitUntil(
    () => {
      if (!running && (value === undefined || value === null)) {
        running = true;
        read().then(
          (v) => {
            value = v;
            running = false;
          },
          () => {
            running = false;
          },
        );
      }
      return value !== undefined && value !== null;
    },
    what,
    timeoutMs,
    100,
  );
  return value as T;
}

/** The id of the tab showing `page`, once it does. */
function tabShowing(browser: WebBrowser, page: string): Promise<number> {
  return poll(
    async () =>
      (await browser.walletTab.evaluate(
        `${extensionApi}.tabs.query({}).then((tabs) => tabs.find((t) => t.url === ${JSON.stringify(page)})?.id)`,
      )) as number | undefined,
    "the paywalled page's tab",
  );
}

/**
 * After a page offer was approved: the paid article shows in its tab, the
 * payment settles with `proof` verified in history, and the one-time rule and
 * the offer are gone.
 */
async function assertPageLoadedPaid(
  rig: PaymentRig,
  browser: WebBrowser,
  sold: { page: string; tabId: number; before: Snapshot; price: bigint; proof: string },
): Promise<void> {
  const shown = await poll(
    async () =>
      (await rig.agent.evaluate(
        `document.querySelector('[data-testid="paid-article"]')?.textContent ?? null`,
      )) as string | null,
    "the paid article in the tab",
  );
  assert.match(shown, /You paid for this page/);
  const [row] = await assertSettled(rig, new URL(sold.page).origin, sold.before, [sold.price]);
  assert.equal(row?.what, sold.page);
  const detail = await rig.wallet({ method: "ui_getPayment", params: { id: row?.id ?? "" } });
  // A Stipendex Receipt verifies; an x402 settle response is signed by nobody: kept as unsigned,
  // its settlement confirmed on chain (assertSettled above).
  assert.ok(
    detail.objects.some(
      (o) => o.kind === sold.proof && (sold.proof === "x402-settlement" ? o.unsigned : o.verified),
    ),
    JSON.stringify(detail.objects.map((o) => [o.kind, o.verified, o.unsigned])),
  );
  assert.deepEqual(
    await browser.walletTab.evaluate(`${extensionApi}.declarativeNetRequest.getSessionRules()`),
    [],
    "the one-time rule is gone",
  );
  assert.equal(
    await rig.wallet({ method: "ui_getPageOffer", params: { tabId: sold.tabId } }),
    null,
  );
}

/** The page hook runs in every page: its bundle stays within this many bytes. */
const HOOK_BUDGET_BYTES = 10_000;

export function describeWeb(
  browserName: string,
  build: BuildTarget,
  timeoutMs: number,
  open: (demo: Demo, payerKey: string) => Promise<WebBrowser>,
): void {
  describe(`XMLHttpRequest and paywalled pages in ${browserName}`, { timeout: timeoutMs }, () => {
    const get = demoRig(browserName, timeoutMs, open);
    it("the page hook every page carries, XMLHttpRequest half included, stays within 10 kB", () => {
      const bytes = statSync(join(builtExtension(build), "content-scripts", "hook.js")).size;
      assert.ok(bytes <= HOOK_BUDGET_BYTES, `hook.js is ${bytes} bytes`);
    });

    const searchUrl = (q: string) => `${get().rig.demo.urls.x402v2}/api/search?q=${q}`;

    it("an async XHR's 402, approved in the window: the XHR sees only the paid answer, in the browser's own event order; the chain moved", async () => {
      const { rig, origin } = get();
      const free = (await rig.agent.evaluate(
        xhrScript(`${rig.demo.urls.stipendex}/.well-known/stipendex.json`, "json"),
      )) as XhrOutcome;
      assert.equal(free.status, 200, JSON.stringify(free));
      const before = await snapshot(rig, origin);
      const paid = await xhrDecided(rig, xhrScript(searchUrl("xhr"), "json"), "Approve");
      assert.equal(paid.status, 200, JSON.stringify(paid));
      assert.ok(!paid.seen.some((entry) => entry.endsWith(":402")), paid.seen.join());
      assert.deepEqual(shape(paid.seen), shape(free.seen), "the same events as a free load");
      assert.deepEqual(steps(paid.seen).slice(-3), [
        "readystatechange:4:200",
        "load:4:200",
        "loadend:4:200",
      ]);
      assert.ok(paid.receipt, "the XHR reads the x402 receipt header");
      assert.ok(
        Array.isArray((paid.body as { results?: unknown }).results),
        JSON.stringify(paid.body),
      );
      await assertSettled(rig, origin, before, [HTTP_PRICES.x402v2]);
    });

    it("an async XHR's 402, declined: the XHR gets the original 402 and its events; nothing signed", async () => {
      const { rig, origin } = get();
      const before = await snapshot(rig, origin);
      const declined = await xhrDecided(rig, xhrScript(searchUrl("declined"), ""), "Decline");
      assert.equal(declined.status, 402, JSON.stringify(declined));
      assert.equal(declined.receipt, null);
      assert.deepEqual(steps(declined.seen).slice(0, 3), [
        "readystatechange:1:0",
        "loadstart:1:0",
        "readystatechange:2:402",
      ]);
      assert.deepEqual(steps(declined.seen).slice(-3), [
        "readystatechange:4:402",
        "load:4:402",
        "loadend:4:402",
      ]);
      await assertNothingSigned(rig, origin, before, "declined");
    });

    it("an XHR aborted while the wallet asks: the page gets abort and loadend; the request is withdrawn, the window goes, nothing is paid", async () => {
      const { rig, origin } = get();
      const before = await snapshot(rig, origin);
      const shown = rig.nextConfirmWindow();
      const outcome = rig.agent.evaluate(`new Promise((resolve) => {
        const xhr = new XMLHttpRequest();
        const seen = [];
        const note = (event) => seen.push(event.type + ":" + xhr.readyState + ":" + xhr.status);
        for (const type of ["readystatechange", "loadstart", "progress", "load", "error", "abort", "timeout", "loadend"]) {
          xhr.addEventListener(type, note);
        }
        xhr.open("GET", ${JSON.stringify(searchUrl("aborted"))});
        xhr.send();
        window.abortPaidXhr = () => {
          xhr.abort();
          resolve({ seen, status: xhr.status, readyState: xhr.readyState });
        };
      })`) as Promise<{ seen: string[]; status: number; readyState: number }>;
      await shown;
      await rig.agent.evaluate("window.abortPaidXhr()");
      const aborted = await outcome;
      assert.deepEqual(steps(aborted.seen), [
        "readystatechange:1:0",
        "loadstart:1:0",
        "readystatechange:4:0",
        "abort:4:0",
        "loadend:4:0",
      ]);
      assert.deepEqual(
        { status: aborted.status, readyState: aborted.readyState },
        { status: 0, readyState: 0 },
      );
      await assertWithdrawn(rig, origin, before, "The site");
    });

    it("a fetch aborted while the wallet asks rejects as aborted; the request is withdrawn, the window goes, nothing is paid", async () => {
      const { rig, origin } = get();
      const before = await snapshot(rig, origin);
      const shown = rig.nextConfirmWindow();
      const outcome = rig.agent.evaluate(`(async () => {
        const controller = new AbortController();
        window.abortPaidFetch = () => controller.abort();
        try {
          await fetch(${JSON.stringify(searchUrl("withdrawn"))}, { signal: controller.signal });
          return "answered";
        } catch (error) {
          return error.name;
        }
      })()`);
      await shown;
      await rig.agent.evaluate("window.abortPaidFetch()");
      assert.equal(await outcome, "AbortError");
      await assertWithdrawn(rig, origin, before, "The site");
    });

    it("a page that navigates away while the wallet asks: its request is withdrawn, the window goes, nothing is paid", async () => {
      const { rig, origin } = get();
      const before = await snapshot(rig, origin);
      const shown = rig.nextConfirmWindow();
      // Not awaited in the evaluation: a driver may run an evaluation again in the reloaded page.
      await rig.agent.evaluate(`void fetch(${JSON.stringify(searchUrl("left"))}), true`);
      await shown;
      // Reloaded: the relay's port closes with the old document (the agent page is there again after).
      await rig.agent.evaluate("setTimeout(() => location.reload(), 0), true");
      await assertWithdrawn(rig, origin, before, "The site");
      // The next tests use the reloaded page, with its wallet hook.
      let ready = false;
      await waitUntil(
        () => {
          void rig.agent
            .evaluate("document.readyState === 'complete' && 'stipendex' in window")
            .then(
              (loaded) => {
                ready = loaded === true;
              },
              () => undefined,
            );
          return ready;
        },
        "the agent page loaded again",
        10_000,
        100,
      );
    });

    it("an elicitation its server gives up on while the wallet asks: withdrawn, the window goes, nothing is paid", async () => {
      const { rig, origin } = get();
      const before = await snapshot(rig, origin);
      const shown = rig.nextConfirmWindow();
      const impatient = mcpPath(
        "elicitation its server cancels",
        "Call confirmed tool (server waits 4 s for the confirmation)",
        "result-mcp-confirmed-impatient",
        10_000n,
      );
      const result = runAgentButton(rig.agent, impatient);
      await shown;
      // Nobody decides: the server's elicitation times out, it cancels it (notifications/cancelled
      // on the call's stream), and its tool call fails with the SDK's timeout.
      const outcome = (await result) as { ok: boolean; error?: { code?: number } };
      assert.deepEqual({ ok: outcome.ok, code: outcome.error?.code }, { ok: false, code: -32001 });
      await assertWithdrawn(rig, origin, before, "The site");
    });

    it("a sync XHR is left alone: its 402 reaches the page, no window opens", async () => {
      const { rig, origin } = get();
      const before = await snapshot(rig, origin);
      const opened = rig.confirmWindowsOpened();
      const status = await rig.agent.evaluate(
        `(() => { const xhr = new XMLHttpRequest(); xhr.open("GET", ${JSON.stringify(searchUrl("sync"))}, false); xhr.send(); return xhr.status; })()`,
      );
      assert.equal(status, 402);
      assert.equal(rig.confirmWindowsOpened(), opened);
      await assertNothingSigned(rig, origin, before);
    });

    it("the page's XMLHttpRequest still looks like the browser's own", async () => {
      const { rig } = get();
      const looks = await rig.agent.evaluate(
        `(() => { const xhr = new XMLHttpRequest(); return { name: XMLHttpRequest.name, instance: xhr instanceof XMLHttpRequest && xhr instanceof EventTarget, done: XMLHttpRequest.DONE, tag: String(xhr), own: Object.keys(xhr).length }; })()`,
      );
      assert.deepEqual(looks, {
        name: "XMLHttpRequest",
        instance: true,
        done: 4,
        tag: "[object XMLHttpRequest]",
        own: 0,
      });
    });

    it("a paywalled page is offered (badge, popup), declined then paid once approved in the window, loaded paid and shown; its receipt is in history", async () => {
      const { rig, browser } = get();
      const page = rig.demo.urls.paywalledPage;
      const pageOrigin = new URL(page).origin;
      const before = await snapshot(rig, pageOrigin);
      await rig.agent.evaluate(`location.href = ${JSON.stringify(page)}`).catch(() => undefined);
      const tabId = await tabShowing(browser, page);
      const offer = await poll(
        () => rig.wallet({ method: "ui_getPageOffer", params: { tabId } }),
        "the wallet's offer for the paywalled page",
      );
      assert.deepEqual(
        { url: offer.url, atomic: offer.amount.atomic, paying: offer.paying },
        { url: page, atomic: HTTP_PRICES.paywalledPage.toString(), paying: false },
      );
      assert.equal(
        await browser.walletTab.evaluate(
          `${extensionApi}.action.getBadgeText({ tabId: ${tabId} })`,
        ),
        "$",
      );
      assert.match(
        String(await rig.agent.evaluate("document.body.textContent")),
        /Payment Required/,
        "unpaid, the tab shows the site's paywall",
      );

      // The toolbar popup, opened as a window over the paywalled tab.
      await browser.walletTab.evaluate(
        `${extensionApi}.tabs.update(${tabId}, { active: true }).then((tab) => ${extensionApi}.windows.update(tab.windowId, { focused: true })).then(() => true)`,
      );
      const [popup] = await Promise.all([
        browser.nextWalletWindow("popup.html"),
        browser.walletTab.evaluate(
          `${extensionApi}.windows.create({ url: ${extensionApi}.runtime.getURL("/popup.html"), type: "popup" }).then(() => true)`,
        ),
      ]);
      assert.match((await popup.text("page-offer-amount")) ?? "", /^0\.003 /);
      assert.deepEqual((await snapshot(rig, pageOrigin)).rows, before.rows, "nothing before asked");

      // Declined: the popup says so, the tab keeps its paywall; the next click asks again.
      await Promise.all([
        popup.click("Pay and open the page"),
        rig.nextConfirmWindow().then((window) => window.click("Decline")),
      ]);
      assert.match(
        await poll(
          async () =>
            (await popup.evaluate(
              `document.querySelector('[role="alert"]')?.textContent ?? null`,
            )) as string | null,
          "the popup's word on the decline",
        ),
        /declined/i,
      );
      await newRows(rig, before, 1, "declined");
      assert.match(
        String(await rig.agent.evaluate("document.body.textContent")),
        /Payment Required/,
      );
      const declined = await snapshot(rig, pageOrigin);
      await Promise.all([
        popup.click("Pay and open the page"),
        rig.nextConfirmWindow().then((window) => window.click("Approve")),
      ]);

      await assertPageLoadedPaid(rig, browser, {
        page,
        tabId,
        before: declined,
        price: HTTP_PRICES.paywalledPage,
        proof: "x402-settlement",
      });

      // Loaded again, the page asks again: the payment was sent once.
      const paidRows = await newRows(rig, declined, 1, "settled");
      await rig.agent.evaluate("location.reload()").catch(() => undefined);
      await poll(
        () => rig.wallet({ method: "ui_getPageOffer", params: { tabId } }),
        "a new offer after reloading",
      );
      assert.deepEqual(await newRows(rig, declined, 1, "settled"), paidRows);
    });

    // The same offer for the other ways a site sells a page: no price header (x402 v1, asked
    // again for JSON), and a Stipendex Quote (its 402 is JSON; the paid load carries a Proof).
    for (const sold of [
      {
        by: "x402 v1",
        url: "paywalledPageV1",
        price: HTTP_PRICES.paywalledPageV1,
        proof: "x402-settlement",
      },
      {
        by: "Stipendex",
        url: "paywalledPageStipendex",
        price: HTTP_PRICES.paywalledPageStipendex,
        proof: "receipt",
      },
    ] as const) {
      it(`a page sold by ${sold.by} is offered, paid once approved, loaded paid; its ${sold.proof} is kept in history`, async () => {
        const { rig, browser } = get();
        const page = rig.demo.urls[sold.url];
        const pageOrigin = new URL(page).origin;
        const before = await snapshot(rig, pageOrigin);
        await rig.agent.evaluate(`location.href = ${JSON.stringify(page)}`).catch(() => undefined);
        const tabId = await tabShowing(browser, page);
        // The tab's offer for the page it showed before goes once this page answers.
        const offer = await poll(async () => {
          const shown = await rig.wallet({ method: "ui_getPageOffer", params: { tabId } });
          return shown?.url === page ? shown : undefined;
        }, "the wallet's offer for the page");
        assert.deepEqual(
          { url: offer.url, atomic: offer.amount.atomic, paying: offer.paying },
          { url: page, atomic: sold.price.toString(), paying: false },
        );
        assert.deepEqual(
          (await snapshot(rig, pageOrigin)).rows,
          before.rows,
          "nothing before asked",
        );

        await Promise.all([
          rig.wallet({ method: "ui_payPage", params: { tabId, viewId: offer.viewId } }),
          rig.nextConfirmWindow().then((window) => window.click("Approve")),
        ]);
        await assertPageLoadedPaid(rig, browser, { page, tabId, before, ...sold });
      });
    }

    // Last: its payments stay signed and uncollected (the server never settles them).
    it("an XHR's timeout bounds the paid retry from its sending: a slow decision is not timed out, a retry that hangs is", async () => {
      const { rig } = get();
      await backToAgentPage(rig);
      const server = await startUnsettlingServer(searchUrl("timeout"));
      try {
        const timed = (path: string) =>
          xhrScript(`${server.origin}${path}`, "").replace(
            "xhr.send();",
            `xhr.timeout = ${XHR_TIMEOUT_MS}; xhr.send();`,
          );
        const [slowDecision] = await Promise.all([
          rig.agent.evaluate(timed("/answers")) as Promise<XhrOutcome>,
          rig.nextConfirmWindow().then(async (window) => {
            await new Promise((resolve) => setTimeout(resolve, 2 * XHR_TIMEOUT_MS));
            await window.click("Approve");
          }),
        ]);
        assert.equal(slowDecision.status, 200, JSON.stringify(slowDecision));
        assert.deepEqual(steps(slowDecision.seen).slice(-3), [
          "readystatechange:4:200",
          "load:4:200",
          "loadend:4:200",
        ]);

        const hung = await xhrDecided(rig, timed("/hangs"), "Approve");
        assert.deepEqual(steps(hung.seen).slice(-3), [
          "readystatechange:4:0",
          "timeout:4:0",
          "loadend:4:0",
        ]);
        assert.equal(hung.status, 0);
        assert.equal(server.paidRequests(), 2, "each payment was sent once");
      } finally {
        await server.close();
      }
    });

    it("a GET its server redirects on its own origin to a price is paid at the URL that answered, asked with a URL or a Request", async () => {
      const { rig } = get();
      await backToAgentPage(rig);
      const server = await startUnsettlingServer(searchUrl("redirected"));
      try {
        for (const input of [
          `new Request(${JSON.stringify(`${server.origin}/moved`)}, { cache: "no-store" })`,
          JSON.stringify(`${server.origin}/moved`),
        ]) {
          const [outcome] = await Promise.all([
            rig.agent.evaluate(`fetch(${input}).then(async (response) =>
              [response.status, response.url, await response.text()])`),
            rig.nextConfirmWindow().then((window) => window.click("Approve")),
          ]);
          assert.deepEqual(outcome, [200, `${server.origin}/answers`, "answered"], input);
        }
        assert.deepEqual(server.paidPaths(), ["/answers", "/answers"]);
      } finally {
        await server.close();
      }
    });
  });
}

/** Navigates the agent tab back to the demo's agent page and waits for it to load. */
async function backToAgentPage(rig: PaymentRig): Promise<void> {
  await rig.agent
    .evaluate(`location.href = ${JSON.stringify(rig.demo.urls.agent)}`)
    .catch(() => undefined);
  await poll(
    async () =>
      (await rig.agent.evaluate(
        `location.origin === ${JSON.stringify(new URL(rig.demo.urls.agent).origin)} && document.readyState === "complete"`,
      )) || undefined,
    "the agent page again",
  );
}

/** The XHR timeout of the timeout test: the person's decision there takes twice as long. */
const XHR_TIMEOUT_MS = 1_500;

/**
 * An x402 v2 server on 127.0.0.1 (CORS open) pricing every path like the
 * demo's `priced` URL, as its own resource: `/answers` answers the paid retry
 * at once, `/hangs` never does, `/moved` redirects to `/answers`. None settles.
 */
async function startUnsettlingServer(priced: string) {
  const unpaid = await fetch(priced);
  const header = unpaid.headers.get("payment-required");
  assert.ok(unpaid.status === 402 && header, `no v2 402 from ${priced}`);
  const required = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  const paid: string[] = [];
  const server = createServer((req, res) => {
    res.setHeader("access-control-allow-origin", "*");
    res.setHeader("access-control-allow-headers", "*");
    res.setHeader("access-control-expose-headers", "*");
    if (req.method === "OPTIONS") return res.writeHead(204).end();
    if (req.url === "/moved") return res.writeHead(302, { location: "/answers" }).end();
    if (!req.headers["payment-signature"]) {
      const resource = { ...required.resource, url: `${origin}${req.url}` };
      const value = Buffer.from(JSON.stringify({ ...required, resource })).toString("base64");
      return res
        .writeHead(402, { "payment-required": value, "content-type": "application/json" })
        .end("{}");
    }
    paid.push(req.url ?? "");
    if (req.url === "/answers")
      res.writeHead(200, { "content-type": "text/plain" }).end("answered");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address && typeof address === "object");
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    paidRequests: () => paid.length,
    /** The path of each paid request, in order. */
    paidPaths: () => [...paid],
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
