import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { McpError } from "@modelcontextprotocol/sdk/types.js";
import { decodeJwt, decodeProtectedHeader, generateKeyPair } from "jose";
import { type Demo, startDemo } from "../../../demo/server";
import { ErrorCode, type PaymentChallenge } from "../../../lib/messages";
import { toJsonForm } from "../../../lib/protocol/envelope/json-form";
import { type QuoteInput, signQuote } from "../../../lib/protocol/envelope/quote";
import { assertNothingSigned, newRows, type PaymentRig, snapshot, type Tab } from "./payments";
import { startServer, type TestServer } from "./server";
import { pollFor } from "./wait";
import { grantOriginBudget, useDemoChain, type WalletCall, withOriginBudget } from "./wallet-setup";

/** A Stipendex -32402 Quote for `tool` with `args`, asked of an MCP server with the official client. */
export async function fetchMcpQuote(
  server: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<QuoteJsonForm> {
  const client = new Client({ name: "stipendex-e2e", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server)));
  try {
    await client.callTool({ name: tool, arguments: args });
  } catch (error) {
    const quote = (error as McpError).data as { quote?: QuoteJsonForm } | undefined;
    assert.equal((error as McpError).code, -32402, String(error));
    assert.ok(quote?.quote, `no quote in ${JSON.stringify(quote)}`);
    return quote.quote;
  } finally {
    await client.close();
  }
  assert.fail(`${tool} on ${server} was not priced`);
}

/** The page hostile.html, served by startServer on an origin of its own. */
export const HOSTILE_PAGE = "/hostile.html";

export interface QuoteJsonForm {
  stipendex: string;
  jws: string;
}

/** A fresh Quote from a Stipendex HTTP receiver, fetched from Node as a page would meet it. */
export async function fetchQuote(url: string): Promise<QuoteJsonForm> {
  const response = await fetch(url);
  assert.equal(response.status, 402);
  const { quote } = (await response.json()) as { quote: QuoteJsonForm };
  return quote;
}

/**
 * The same Quote claims (iss = the real receiver, same kid) for `url`, signed
 * by a fresh Ed25519 key the receiver never published.
 */
export async function forgeQuote(real: QuoteJsonForm, url: string): Promise<QuoteJsonForm> {
  const { stipendex: _, ...claims } = decodeJwt(real.jws) as unknown as QuoteInput & {
    stipendex: string;
  };
  const { kid } = decodeProtectedHeader(real.jws);
  const { privateKey } = await generateKeyPair("EdDSA");
  const jws = await signQuote(
    { ...claims, jti: `forged-${claims.jti}`, resource: { http: { method: "GET", url } } },
    { kid: kid ?? "forged", alg: "EdDSA", key: privateKey },
  );
  return toJsonForm("quote", jws);
}

/** What the page's hook would hand the wallet for a Stipendex 402 on `url`. */
export function httpChallenge(url: string, quote: QuoteJsonForm): PaymentChallenge {
  return {
    transport: "http",
    url,
    method: "GET",
    body: JSON.stringify({ quote }),
    paymentRequiredHeader: null,
  };
}

const REFUSALS = [-32601, 4100];

/** Every forged UI call must come back refused (unknown method or unauthorized). */
export function assertAllRefused(answers: Record<string, unknown>): void {
  for (const [name, answer] of Object.entries(answers)) {
    const { ok, error } = answer as { ok?: boolean; error?: { code?: number } };
    assert.equal(ok, false, `${name}: ${JSON.stringify(answer)}`);
    assert.ok(REFUSALS.includes(error?.code ?? 0), `${name}: ${JSON.stringify(answer)}`);
  }
}

/** One frame as the hostile checks see it: where it is and how many Approve buttons it shows. */
export interface FrameView {
  url: string;
  approveButtons: number;
}

/** A page looked at frame by frame. */
export interface FramedPage {
  frames(): Promise<FrameView[]>;
  close(): Promise<void>;
}

/** One browser's side of the hostile-page suite: the wallet set up and the hostile page open. */
export interface HostileBrowser {
  /** The hostile page, loaded and ready. */
  page: Tab & FramedPage;
  /** Evaluates `expression` in the hostile page's frame whose URL ends with `urlEnd`. */
  inFrame(urlEnd: string, expression: string): Promise<unknown>;
  wallet: WalletCall;
  /** The wallet's extension id, as a page would name it to runtime.sendMessage. */
  extensionId: string;
  extensionUrl(path: string): string;
  /** Opens `url` (a hostile page) in a tab of its own, once ready: a second page of the person's. */
  openTab(url: string): Promise<Tab>;
  /** Resolves with the next confirmation window (start before what opens it). */
  nextConfirmWindow(): Promise<Tab>;
  /** Resolves with the next page the browser opens, once loaded (start before what opens it). */
  nextPage(): Promise<FramedPage>;
  /** How many pages opened since the hostile page was opened. */
  windowsOpened(): number;
  close(): Promise<void>;
}

interface PayOutcome {
  ok: boolean;
  result?: { paymentId: string; header?: { name: string; value: string } };
  error?: { code: number; message: string; data?: { reason?: string } };
}

/**
 * Registers the hostile-page checks for one browser. `open` launches it, sets
 * the wallet up with `payerKey` and opens `hostileUrl` (closing the browser
 * itself if that fails).
 */
export function describeHostile(
  browserName: string,
  timeoutMs: number,
  open: (hostileUrl: string, payerKey: string) => Promise<HostileBrowser>,
): void {
  describe(`A hostile page in ${browserName}`, { timeout: timeoutMs }, () => {
    let demo: Demo | undefined;
    let server: TestServer | undefined;
    let browser: HostileBrowser | undefined;
    let rig: PaymentRig;
    let hostileOrigin: string;
    let agentOrigin: string;
    let forged: QuoteJsonForm;
    /** The demo's x402 v1 price, which the hostile server's `/api/xhr-priced` asks too. */
    let v1Price: { accepts: Record<string, unknown>[] };
    /** The X-PAYMENT headers `/api/xhr-priced` was paid with. */
    const xhrPayments: string[] = [];
    const get = () => {
      assert.ok(browser && server, `${browserName} did not start`);
      return { browser, server };
    };
    const searchUrl = (q: string) => `${demo?.urls.stipendex}/api/search?q=${q}`;
    const pay = (challenge: PaymentChallenge, extra: object = {}) =>
      get().browser.page.evaluate(
        `hostile.pay(${JSON.stringify(challenge)}, ${JSON.stringify(extra)})`,
      ) as Promise<PayOutcome>;
    /** Runs `checks` while `origin` holds an automatic budget; the policy is restored after. */
    const withAutomaticBudget = async (origin: string, checks: () => Promise<void>) => {
      const { browser } = get();
      const policy = await browser.wallet({ method: "ui_getPolicy", params: undefined });
      await browser.wallet({
        method: "ui_setPolicy",
        params: withOriginBudget(policy, origin, {
          amount: "1000000",
          autoApproveUpTo: "1000000",
        }),
      });
      try {
        await checks();
      } finally {
        await browser.wallet({
          method: "ui_setPolicy",
          params: { ...policy, revision: undefined },
        });
      }
    };
    /**
     * Adds a frame of `origin` (named `name`) to the hostile page, which pays a tools/call
     * -32402 carrying `quote`; resolves once the confirmation window asks, with what it paid.
     */
    const payInFrame = async (
      name: string,
      origin: string,
      call: { server: string; arguments: object; quote: unknown },
    ) => {
      const { browser } = get();
      await browser.page.evaluate(
        `hostile.addFrame(${JSON.stringify(name)}, ${JSON.stringify(`${origin}/hostile-frame.html?${name}`)})`,
      );
      const before = await snapshot(rig, origin);
      const asked = browser.nextConfirmWindow();
      const challenge: PaymentChallenge = {
        transport: "mcp",
        server: call.server,
        tool: "web_search",
        arguments: call.arguments,
        error: { code: -32402, message: "Payment required", data: { quote: call.quote } },
      };
      const outcome = browser.inFrame(
        `hostile-frame.html?${name}`,
        `hostile.pay(${JSON.stringify(challenge)})`,
      ) as Promise<PayOutcome>;
      return { before, window: await asked, outcome };
    };

    before(
      async () => {
        demo = await startDemo();
        const real = await fetchQuote(searchUrl("forged"));
        const probe = await fetch(`${demo.urls.x402v1}/api/search?q=probe`);
        assert.equal(probe.status, 402);
        v1Price = (await probe.json()) as typeof v1Price;
        server = await startServer({
          // Priced like the demo's x402 v1 API (same-origin for the page: no CORS); counts its payments.
          "/api/xhr-priced": (req, res, url) => {
            const payment = req.headers["x-payment"];
            if (typeof payment === "string") {
              xhrPayments.push(payment);
              res.writeHead(200, { "content-type": "text/plain" });
              res.end("paid");
              return;
            }
            res.writeHead(402, { "content-type": "application/json" });
            const accepts = v1Price.accepts.map((a) => ({ ...a, resource: url.href }));
            res.end(JSON.stringify({ ...v1Price, accepts }));
          },
          // A 402 whose Quote names the demo receiver but is signed by a key it never published.
          "/api/forged": (_req, res) => {
            res.writeHead(402, { "content-type": "application/json" });
            res.end(JSON.stringify({ quote: forged }));
          },
        });
        forged = await forgeQuote(real, server.url("/api/forged"));
        hostileOrigin = server.origin;
        agentOrigin = new URL(demo.urls.agent).origin;
        const payer = demo.chain.accounts.payers[0];
        assert.ok(payer, "the demo chain has no payer");
        browser = await open(server.url(HOSTILE_PAGE), payer.privateKey);
        await useDemoChain(browser.wallet, demo.chain);
        // A trusted site with a generous auto-approve budget the hostile page will claim to be.
        await grantOriginBudget(browser.wallet, agentOrigin, {
          amount: "1000000",
          autoApproveUpTo: "1000000",
        });
        rig = {
          demo,
          agent: browser.page,
          payer: payer.address,
          wallet: browser.wallet,
          nextConfirmWindow: browser.nextConfirmWindow,
          confirmWindowsOpened: browser.windowsOpened,
        };
      },
      { timeout: timeoutMs },
    );

    after(async () => {
      await Promise.allSettled([browser?.close(), server?.close(), demo?.stop()]);
    });

    it("forged relay messages cannot approve a pending payment or reach any UI method", async () => {
      const { browser } = get();
      const before = await snapshot(rig, hostileOrigin);
      const confirm = browser.nextConfirmWindow();
      const pending = pay(
        httpChallenge(searchUrl("pending"), await fetchQuote(searchUrl("pending"))),
      );
      const window = await confirm;
      const [approval] = await browser.wallet({ method: "ui_listPending", params: undefined });
      assert.ok(approval);
      assert.equal(approval.origin, hostileOrigin);
      assertAllRefused(
        (await browser.page.evaluate(
          `hostile.forgeUiCalls(${JSON.stringify(approval.id)})`,
        )) as Record<string, unknown>,
      );
      // Still waiting for the person: the forged decisions changed nothing.
      assert.deepEqual(
        (await browser.wallet({ method: "ui_listPending", params: undefined })).map((a) => a.id),
        [approval.id],
      );
      await window.click("Decline");
      const outcome = await pending;
      assert.equal(outcome.ok, false);
      assert.equal(outcome.error?.code, ErrorCode.UserRejected, JSON.stringify(outcome));
      assert.equal(outcome.error?.data?.reason, "user-declined", JSON.stringify(outcome));
      await assertNothingSigned(rig, hostileOrigin, before, "declined");
    });

    it("an origin claimed in the payload is ignored: asked and recorded under the real origin", async () => {
      const { browser } = get();
      const before = await snapshot(rig, hostileOrigin);
      const agentSpend = () =>
        browser
          .wallet({ method: "ui_getSpend", params: { origin: agentOrigin } })
          .then((spend) => spend.map((s) => s.origin));
      const agentBefore = await agentSpend();
      const quote = await fetchQuote(searchUrl("claimed"));
      const confirm = browser.nextConfirmWindow();
      const paid = pay(httpChallenge(searchUrl("claimed"), quote), { origin: agentOrigin });
      // The claimed origin has an auto-approve budget: a window at all means the claim was ignored.
      const window = await confirm;
      assert.equal(await window.text("origin"), hostileOrigin);
      await window.click("Approve");
      const outcome = await paid;
      assert.equal(outcome.ok, true, JSON.stringify(outcome));
      assert.equal(outcome.result?.header?.name, "Stipendex-Payment");
      const [row] = await newRows(rig, before, 1, "signed");
      assert.equal(row?.origin, hostileOrigin);
      assert.deepEqual(
        await agentSpend(),
        agentBefore,
        "nothing counted against the claimed origin",
      );

      // The same Quote again, under a new request id: a replay, refused before anything is signed.
      const afterFirst = await snapshot(rig, hostileOrigin);
      const windows = browser.windowsOpened();
      const replay = await pay(httpChallenge(searchUrl("claimed"), quote));
      assert.equal(replay.ok, false);
      assert.equal(replay.error?.code, ErrorCode.InvalidQuote, JSON.stringify(replay));
      assert.equal(replay.error?.data?.reason, "unreadable-challenge", JSON.stringify(replay));
      assert.match(replay.error?.message ?? "", /Replayed quote/);
      assert.equal(browser.windowsOpened(), windows, "no confirmation window for a replay");
      await assertNothingSigned(rig, hostileOrigin, afterFirst, "refused");
    });

    it("a Quote paid under an automatic budget, replayed under a new request id, is refused as a replay", () =>
      withAutomaticBudget(hostileOrigin, async () => {
        const { browser } = get();
        // The first pays the usual way at the latest; the worker then remembers the ledger.
        for (const q of ["auto-first", "auto-replayed"]) {
          const paid = await pay(httpChallenge(searchUrl(q), await fetchQuote(searchUrl(q))));
          assert.equal(paid.ok, true, JSON.stringify(paid));
        }
        const quote = await fetchQuote(searchUrl("auto-replayed-again"));
        const first = await pay(httpChallenge(searchUrl("auto-replayed-again"), quote));
        assert.equal(first.ok, true, JSON.stringify(first));
        const afterFirst = await snapshot(rig, hostileOrigin);
        const windows = browser.windowsOpened();
        // From memory: the Quote id's unique index refuses the add, after the transaction's commit().
        const replay = await pay(httpChallenge(searchUrl("auto-replayed-again"), quote));
        const { spend } = await snapshot(rig, hostileOrigin);
        assert.deepEqual(spend, afterFirst.spend, "nothing charged for the replay");
        assert.equal(replay.ok, false);
        assert.equal(replay.error?.code, ErrorCode.InvalidQuote, JSON.stringify(replay));
        assert.match(replay.error?.message ?? "", /Replayed quote/);
        assert.equal(browser.windowsOpened(), windows, "no confirmation window for a replay");
        await assertNothingSigned(rig, hostileOrigin, afterFirst, "refused");
      }));

    it("a Quote signed by a key the receiver never published is refused, served or handed over", async () => {
      const { browser, server } = get();
      const before = await snapshot(rig, hostileOrigin);
      const windows = browser.windowsOpened();
      const served = (await browser.page.evaluate(`hostile.fetchPriced("/api/forged")`)) as {
        status: number;
        body: string;
      };
      assert.equal(served.status, 402);
      assert.deepEqual(JSON.parse(served.body), { quote: forged });
      const direct = await pay(httpChallenge(server.url("/api/forged"), forged));
      assert.equal(direct.ok, false);
      assert.equal(direct.error?.code, ErrorCode.InvalidQuote, JSON.stringify(direct));
      assert.equal(direct.error?.data?.reason, "bad-signature", JSON.stringify(direct));
      assert.match(
        direct.error?.message ?? "",
        /signature does not verify/,
        JSON.stringify(direct),
      );
      assert.equal(browser.windowsOpened(), windows, "no confirmation window for a forged Quote");
      await assertNothingSigned(rig, hostileOrigin, before);
    });

    it("a second origin that pays a Quote another origin confirmed by elicitation is asked", async () => {
      const { browser, server } = get();
      assert.ok(demo);
      const mcp = demo.urls.mcpJson;
      const args = { query: "borrowed consent" };
      const quote = await fetchMcpQuote(mcp, "web_search", args);
      // The hostile page confirms the Quote in the wallet's window, as a person would.
      const confirm = browser.nextConfirmWindow();
      const elicited = browser.page.evaluate(
        `hostile.elicit(${JSON.stringify(mcp)}, ${JSON.stringify(quote)})`,
      ) as Promise<{ ok: boolean; result?: { action: string } }>;
      await (await confirm).click("Approve");
      assert.equal((await elicited).result?.action, "accept", JSON.stringify(await elicited));

      // A frame of another origin in the same tab pays that very Quote: it must be asked.
      const otherOrigin = server.origin.replace("127.0.0.1", "localhost");
      const {
        before,
        window,
        outcome: stolen,
      } = await payInFrame("other", otherOrigin, {
        server: mcp,
        arguments: args,
        quote,
      });
      assert.equal(await window.text("origin"), otherOrigin);
      await window.click("Decline");
      const outcome = await stolen;
      assert.equal(outcome.ok, false, JSON.stringify(outcome));
      assert.equal(outcome.error?.code, ErrorCode.UserRejected, JSON.stringify(outcome));
      await assertNothingSigned(rig, otherOrigin, before, "declined");
    });

    it("a site with an automatic budget is asked when another site frames it", async () => {
      const { server } = get();
      assert.ok(demo);
      const mcp = demo.urls.mcpJson;
      const args = { query: "framed budget" };
      const quote = await fetchMcpQuote(mcp, "web_search", args);
      const framedOrigin = server.origin.replace("127.0.0.1", "localhost");
      await withAutomaticBudget(framedOrigin, async () => {
        const {
          before,
          window,
          outcome: driven,
        } = await payInFrame("framed", framedOrigin, { server: mcp, arguments: args, quote });
        assert.equal(await window.text("origin"), framedOrigin);
        assert.match(
          (await window.text("top-origin")) ?? "",
          new RegExp(`inside a page of ${hostileOrigin}`),
        );
        await window.click("Decline");
        const outcome = await driven;
        assert.equal(outcome.error?.code, ErrorCode.UserRejected, JSON.stringify(outcome));
        await assertNothingSigned(rig, framedOrigin, before, "declined");
      });
    });

    it("a page claiming a trusted API's URL for its own pay-to address is asked and shown its pay-to", async () => {
      const { browser } = get();
      assert.ok(demo);
      const trusted = demo.urls.x402v2;
      const url = `${trusted}/api/search?q=claimed`;
      const real = await fetch(url);
      assert.equal(real.status, 402);
      const required = JSON.parse(
        Buffer.from(real.headers.get("payment-required") ?? "", "base64").toString("utf8"),
      ) as { accepts: { payTo: string }[] };
      const attacker = "0x000000000000000000000000000000000000dEaD";
      const forgedHeader = Buffer.from(
        JSON.stringify({
          ...required,
          accepts: required.accepts.map((a) => ({ ...a, payTo: attacker })),
        }),
      ).toString("base64");
      // The hostile page holds an automatic budget, and the trusted API is on the allow list.
      const policy = await browser.wallet({ method: "ui_getPolicy", params: undefined });
      await browser.wallet({
        method: "ui_setPolicy",
        params: {
          ...withOriginBudget(policy, hostileOrigin, {
            amount: "1000000",
            autoApproveUpTo: "1000000",
          }),
          receivers: { allow: [new URL(trusted).origin], deny: [] },
        },
      });
      try {
        const before = await snapshot(rig, hostileOrigin);
        const confirm = browser.nextConfirmWindow();
        const paid = pay({
          transport: "http",
          url,
          method: "GET",
          body: "{}",
          paymentRequiredHeader: forgedHeader,
        });
        const window = await confirm;
        assert.equal((await window.text("pay-to"))?.toLowerCase(), attacker.toLowerCase());
        assert.match((await window.text("receiver")) ?? "", /Unverified/);
        await window.click("Decline");
        const outcome = await paid;
        assert.equal(outcome.error?.code, ErrorCode.UserRejected, JSON.stringify(outcome));
        await assertNothingSigned(rig, hostileOrigin, before, "declined");
      } finally {
        await browser.wallet({
          method: "ui_setPolicy",
          params: { ...policy, revision: undefined },
        });
      }
    });

    it("a sandboxed frame cannot spend the embedding site's budget, nor ask at all", () =>
      withAutomaticBudget(hostileOrigin, async () => {
        const { browser } = get();
        await browser.page.evaluate(
          `hostile.addFrame("sandboxed", "/hostile-frame.html?sandboxed", "allow-scripts")`,
        );
        const before = await snapshot(rig, hostileOrigin);
        const windows = browser.windowsOpened();
        const challenge = httpChallenge(
          searchUrl("sandboxed"),
          await fetchQuote(searchUrl("sandboxed")),
        );
        const outcome = (await browser.inFrame(
          "hostile-frame.html?sandboxed",
          `hostile.pay(${JSON.stringify(challenge)})`,
        )) as PayOutcome;
        assert.equal(outcome.ok, false, JSON.stringify(outcome));
        assert.equal(outcome.error?.code, ErrorCode.Unauthorized, JSON.stringify(outcome));
        assert.equal(
          browser.windowsOpened(),
          windows,
          "no confirmation window for an opaque origin",
        );
        await assertNothingSigned(rig, hostileOrigin, before);
      }));

    it("an XHR's 402 is paid once, whatever loadend events the page dispatches at it", () =>
      withAutomaticBudget(hostileOrigin, async () => {
        const { browser } = get();
        const before = await snapshot(rig, hostileOrigin);
        const seen = (await browser.page.evaluate(`(async () => {
          const url = new URL("/api/xhr-priced?q=once", location.href).href;
          const xhr = new XMLHttpRequest();
          xhr.open("GET", url);
          xhr.send();
          // The 402 has ended (the hook hides it; resource timing does not): the wallet is at work.
          while (performance.getEntriesByName(url).length === 0) await new Promise((r) => setTimeout(r, 5));
          for (let i = 0; i < 3; i++) xhr.dispatchEvent(new ProgressEvent("loadend"));
          while (xhr.readyState !== 4 || xhr.status !== 200) await new Promise((r) => setTimeout(r, 20));
          await new Promise((r) => setTimeout(r, 1000));
          return { status: xhr.status, text: xhr.responseText };
        })()`)) as { status: number; text: string };
        assert.deepEqual(seen, { status: 200, text: "paid" });
        const rows = await newRows(rig, before, 1, "signed");
        assert.equal(rows.length, 1);
        assert.equal(xhrPayments.length, 1, `paid ${xhrPayments.length} times`);
      }));

    // Leaves the hostile site and tab quiet for a minute (QUIET_AFTER_CLOSE_MS): no later check may need a window for them.
    it("a request parked after the person closed the window comes after the one that opens it, warned, with no budget offered", async () => {
      const { browser, server } = get();
      const agentOrigin = server.origin.replace("127.0.0.1", "localhost");
      const [before, agentBefore] = await Promise.all(
        [hostileOrigin, agentOrigin].map((origin) => snapshot(rig, origin)),
      );
      assert.ok(before && agentBefore);
      const challengeFor = async (q: string) =>
        httpChallenge(searchUrl(q), await fetchQuote(searchUrl(q)));
      const first = browser.nextConfirmWindow();
      const closedOn = pay(await challengeFor("parked-first"));
      // The person closes the window on the hostile site's request (the window's own close).
      // Its page may go before the evaluation answers.
      await (await first).evaluate("window.close()").catch(() => undefined);
      assert.equal((await closedOn).error?.code, ErrorCode.UserRejected);
      // Asked again at once, the site waits behind the badge: no window opens for it.
      const windows = browser.windowsOpened();
      const parked = pay(await challengeFor("parked-second"));
      await pollFor(async () => {
        const pending = await browser.wallet({ method: "ui_listPending", params: undefined });
        return pending.some((p) => p.warnings.includes("waited-unshown"));
      }, "the hostile request to wait unshown");
      assert.equal(browser.windowsOpened(), windows, "no window for a parked request");

      // The person's own agent, in another tab and site, asks: its request opens the window.
      const agentTab = await browser.openTab(`${agentOrigin}${HOSTILE_PAGE}`);
      const opened = browser.nextConfirmWindow();
      const asked = agentTab.evaluate(
        `hostile.pay(${JSON.stringify(await challengeFor("agent-asks"))})`,
      ) as Promise<PayOutcome>;
      const window = await opened;
      assert.equal(await window.text("origin"), agentOrigin, "the request that opened it is first");
      assert.equal(await window.text("queue-position"), "1 of 2");
      await window.click("Decline");
      assert.equal((await asked).error?.code, ErrorCode.UserRejected);

      // Then the parked one, said to have waited unshown, with no automatic budget to tick.
      assert.equal(await window.text("origin"), hostileOrigin);
      assert.ok(await window.text("unshown-budget"));
      const shown = await window.evaluate(
        `({ warned: !!document.querySelector('[data-warning="waited-unshown"]'), alwaysAllow: !!document.getElementById("always-allow") })`,
      );
      assert.deepEqual(shown, { warned: true, alwaysAllow: false });
      await window.click("Decline");
      assert.equal((await parked).error?.code, ErrorCode.UserRejected);
      for (const row of await newRows(rig, before, 3, "declined")) {
        const detail = await browser.wallet({ method: "ui_getPayment", params: { id: row.id } });
        assert.ok(!detail.objects.some((o) => o.kind === "proof"), JSON.stringify(row));
      }
      for (const [origin, then] of [
        [hostileOrigin, before],
        [agentOrigin, agentBefore],
      ] as const) {
        const now = await snapshot(rig, origin);
        assert.deepEqual(now.spend, then.spend, `nothing charged to ${origin}`);
        assert.equal(now.payer, then.payer);
      }
    });

    it("cannot load the confirmation page nor reach the extension's messaging", async () => {
      const { browser } = get();
      const before = await snapshot(rig, hostileOrigin);
      const confirmUrl = browser.extensionUrl("confirm.html");
      const popup = browser.nextPage();
      // Chromium opens the window (which must not show the page); Firefox refuses the window.open itself.
      const refusal = await browser.page
        .evaluate(`hostile.openConfirm(${JSON.stringify(confirmUrl)})`)
        .then(
          () => undefined,
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
      if (refusal !== undefined) {
        assert.ok(refusal.includes(`Access to '${confirmUrl}' from script denied`), refusal);
        popup.catch(() => undefined);
      }
      const opened = refusal === undefined ? await popup : undefined;
      for (const frame of [...(await browser.page.frames()), ...((await opened?.frames()) ?? [])]) {
        assert.notEqual(frame.url, confirmUrl, "the confirmation page loaded for the page");
        assert.equal(frame.approveButtons, 0);
      }
      assert.deepEqual(
        await browser.page.evaluate(
          `hostile.runtimeAccess(${JSON.stringify(browser.extensionId)})`,
        ),
        { available: false },
      );
      await opened?.close();
      await assertNothingSigned(rig, hostileOrigin, before);
    });
  });
}
