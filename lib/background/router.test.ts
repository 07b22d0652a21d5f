import { describe, expect, it } from "vitest";
import { ErrorCode, type PaymentAnswer, type PaymentChallenge } from "../messages";
import { diagnostics, HANDLING_TIMES_KEPT, noteHandlingTime, UNKNOWN_METHOD } from "./diagnostics";
import { DEFAULT_PAGE_LIMITS, PageGuard, type PageLimits } from "./page-guard";
import { createProxyRouter, createRouter, type PageHandlers, type UiHandlers } from "./router";
import { RpcError } from "./rpc-error";

const ID = "walletid";
const BASE = `chrome-extension://${ID}/`;
const page = { id: ID, url: "https://agent.example/app", tab: { id: 1 }, frameId: 0 };
const ui = { id: ID, url: `${BASE}popup.html` };

function router() {
  return createRouter({
    extensionId: ID,
    extensionBaseUrl: BASE,
    // Only the methods these tests call; the rest are never reached.
    page: {
      stipendex_status: async (_params: undefined, context: { origin: string }) => ({
        version: "t",
        origin: context.origin,
      }),
    } as unknown as PageHandlers,
    ui: {
      ui_status: async (_params: undefined, context: { url: string }) => {
        if (context.url.endsWith("fail.html")) throw new RpcError(ErrorCode.Locked, "locked");
        return { version: "t", origin: context.url };
      },
    } as unknown as UiHandlers,
  });
}

describe("createRouter", () => {
  it("answers a page with the origin the browser reported, whatever the payload claims", async () => {
    const answer = await router()(
      { channel: "page", method: "stipendex_status", params: { origin: "https://bank.example" } },
      page,
    );
    expect(answer).toEqual({ ok: true, result: { version: "t", origin: "https://agent.example" } });
  });

  it("refuses UI methods from a web page, even through the ui channel", async () => {
    const answer = await router()({ channel: "ui", method: "ui_status", params: undefined }, page);
    expect(answer).toMatchObject({ ok: false, error: { code: ErrorCode.Unauthorized } });
  });

  it("refuses page methods from senders that are not web pages", async () => {
    const answer = await router()(
      { channel: "page", method: "stipendex_status", params: undefined },
      { id: "someone-else", url: "https://agent.example/" },
    );
    expect(answer).toMatchObject({ ok: false, error: { code: ErrorCode.Unauthorized } });
  });

  it("reports unknown methods, including inherited property names", async () => {
    for (const method of ["ui_status", "toString", "__proto__", "stipendex_nope"]) {
      const answer = await router()({ channel: "page", method, params: undefined }, page);
      expect(answer).toMatchObject({ ok: false, error: { code: ErrorCode.MethodNotFound } });
    }
  });

  it("rejects malformed messages without throwing", async () => {
    for (const message of [
      null,
      42,
      "x",
      {},
      { channel: "admin", method: "x" },
      { channel: "page" },
    ]) {
      const answer = await router()(message, page);
      expect(answer).toMatchObject({ ok: false, error: { code: ErrorCode.InvalidRequest } });
    }
  });

  it("passes handler errors on with their numbered code", async () => {
    const answer = await router()(
      { channel: "ui", method: "ui_status", params: undefined },
      { id: ID, url: `${BASE}fail.html` },
    );
    expect(answer).toEqual({ ok: false, error: { code: ErrorCode.Locked, message: "locked" } });
    const okAnswer = await router()({ channel: "ui", method: "ui_status", params: undefined }, ui);
    expect(okAnswer).toMatchObject({ ok: true });
  });
});

const challenge: PaymentChallenge = {
  transport: "http",
  url: "https://api.example.com/search",
  method: "GET",
  body: '{"quote":{}}',
  paymentRequiredHeader: null,
};
const pay = (requestId: string) => ({
  channel: "page",
  method: "stipendex_pay",
  params: { requestId, challenge },
});
const elicit = {
  channel: "page",
  method: "stipendex_elicit",
  params: { server: "https://api.example.com/mcp", params: {} },
};
const status = { channel: "page", method: "stipendex_status", params: undefined };
const from = (origin: string) => ({ id: ID, url: `${origin}/app`, tab: { id: 1 }, frameId: 0 });

/**
 * A router over page handlers that record what reached them; payments wait
 * (for the person, as it were) until `answer()`. The guard's clock is `clock.ms`.
 */
/** Small limits, so each rule is reached in a few calls; the defaults are larger (see the agent test). */
const TEST_LIMITS: PageLimits = {
  ...DEFAULT_PAGE_LIMITS,
  requests: { limit: 120, windowMs: 60_000, maxKeys: 512 },
  payments: { limit: 30, windowMs: 60_000, maxKeys: 512 },
  pending: { perKey: 5, maxKeys: 64, keysPerGroup: 4 },
};

function guardedRouter(limits: PageLimits = TEST_LIMITS) {
  const clock = { ms: 0 };
  const seen: { method: string; params: unknown }[] = [];
  const waiting: (() => void)[] = [];
  const wait = <T>(value: T) =>
    new Promise<T>((resolve) => {
      waiting.push(() => resolve(value));
    });
  const page = {
    stipendex_status: async (params: unknown, context: { origin: string }) => {
      seen.push({ method: "stipendex_status", params });
      return { version: "t", origin: context.origin };
    },
    stipendex_pay: async (params: { requestId: string }) => {
      seen.push({ method: "stipendex_pay", params });
      return wait<PaymentAnswer>({ paymentId: params.requestId });
    },
    stipendex_elicit: async (params: unknown) => {
      seen.push({ method: "stipendex_elicit", params });
      return wait({ action: "decline" });
    },
  } as unknown as PageHandlers;
  const route = createRouter({
    extensionId: ID,
    extensionBaseUrl: BASE,
    page,
    ui: {} as UiHandlers,
    pageGuard: new PageGuard(limits, () => clock.ms),
  });
  /** Answers every payment waiting so far. */
  const answer = async () => {
    for (const resolve of waiting.splice(0)) resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { route, clock, seen, answer };
}

describe("createRouter, page limits", () => {
  it("lets an agent make 32 paid calls at once under the default limits", async () => {
    const { route, answer } = guardedRouter(DEFAULT_PAGE_LIMITS);
    const calls = Array.from({ length: 32 }, (_, i) => route(pay(`parallel-${i}`), page));
    await answer();
    for (const done of await Promise.all(calls)) expect(done).toMatchObject({ ok: true });
  });

  it("lets an agent pay ten times a second for a minute under the default limits", async () => {
    const { route, answer, clock } = guardedRouter(DEFAULT_PAGE_LIMITS);
    for (let i = 0; i < 600; i++) {
      const paid = route(pay(`agent-${i}`), page);
      await answer();
      expect(await paid).toMatchObject({ ok: true });
      expect(await route(status, page)).toMatchObject({ ok: true });
      clock.ms += 100;
    }
  });

  it("refuses oversized or malformed params with InvalidParams before any handler runs", async () => {
    const { route, seen } = guardedRouter();
    const huge = { ...challenge, body: "x".repeat(1024 * 1024) };
    const answer = await route(
      { channel: "page", method: "stipendex_pay", params: { requestId: "r", challenge: huge } },
      page,
    );
    expect(answer).toEqual({
      ok: false,
      error: {
        code: ErrorCode.InvalidParams,
        message: "Invalid stipendex_pay params: challenge.body: must be at most 65536 characters",
      },
    });
    const malformed = await route(
      { channel: "page", method: "stipendex_pay", params: { requestId: 1 } },
      page,
    );
    expect(malformed).toMatchObject({ ok: false, error: { code: ErrorCode.InvalidParams } });
    expect(seen).toEqual([]);
  });

  it("hands handlers the checked params only", async () => {
    const { route, seen } = guardedRouter();
    void route(
      { ...pay("r"), params: { requestId: "r", challenge, origin: "https://bank.example" } },
      page,
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([{ method: "stipendex_pay", params: { requestId: "r", challenge } }]);
  });

  it("refuses a site's 121st request in a minute with RateLimited, saying when to retry; other sites go on", async () => {
    const { route, clock } = guardedRouter();
    for (let i = 0; i < 120; i++) {
      expect(await route(status, page)).toMatchObject({ ok: true });
    }
    expect(await route(status, page)).toEqual({
      ok: false,
      error: {
        code: ErrorCode.RateLimited,
        message:
          "Too many requests from https://agent.example: the wallet takes 120 per 60 s from one site; retry in 1 s",
        data: { retryAfterMs: 500 },
      },
    });
    expect(await route(status, from("https://other.example"))).toMatchObject({ ok: true });
    clock.ms += 500;
    expect(await route(status, page)).toMatchObject({ ok: true });
  });

  it("refuses a site's 31st payment request in a minute with RateLimited", async () => {
    const { route, answer, clock } = guardedRouter();
    for (let i = 0; i < 6; i++) {
      const started = Array.from({ length: 5 }, (_, j) => route(pay(`p${i}-${j}`), page));
      await answer();
      for (const done of await Promise.all(started)) expect(done).toMatchObject({ ok: true });
    }
    const refused = await route(pay("p31"), page);
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: ErrorCode.RateLimited,
        message: expect.stringMatching(
          /^Too many payment requests from https:\/\/agent\.example: the wallet takes 30 per 60 s from one site; retry in 2 s$/,
        ),
      },
    });
    expect(await route(elicit, page)).toMatchObject({ error: { code: ErrorCode.RateLimited } });
    clock.ms += 2_000;
    const again = route(pay("p32"), page);
    await answer();
    expect(await again).toMatchObject({ ok: true });
  });

  it("refuses a 6th waiting payment with TooManyPending while 5 wait, and takes it once one is answered", async () => {
    const { route, answer, seen } = guardedRouter();
    const waiting = [
      ...Array.from({ length: 4 }, (_, i) => route(pay(`w${i}`), page)),
      route(elicit, page),
    ];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toHaveLength(5);
    expect(await route(pay("sixth"), page)).toEqual({
      ok: false,
      error: {
        code: ErrorCode.TooManyPending,
        message:
          "https://agent.example already has 5 payment requests waiting; retry when one of them is answered",
      },
    });
    expect(await route(elicit, page)).toMatchObject({ error: { code: ErrorCode.TooManyPending } });
    expect(seen).toHaveLength(5);
    const elsewhere = route(pay("x"), from("https://other.example"));
    await answer();
    await Promise.all([...waiting, elsewhere]);
    const sixth = route(pay("sixth"), page);
    await answer();
    expect(await sixth).toEqual({ ok: true, result: { paymentId: "sixth" } });
  });

  it("lets the relay send a waiting payment again (same requestId): it joins the run in flight, counted neither as waiting nor as new", async () => {
    const { route, answer, seen } = guardedRouter();
    const waiting = Array.from({ length: 5 }, (_, i) => route(pay(`w${i}`), page));
    // More re-sends than the 30 payments a minute: none is refused.
    const resent = Array.from({ length: 40 }, () => route(pay("w0"), page));
    await new Promise((resolve) => setTimeout(resolve, 0));
    // One run of the handler, whose answer all 41 callers get.
    expect(seen.filter((s) => (s.params as { requestId: string }).requestId === "w0")).toHaveLength(
      1,
    );
    await answer();
    for (const done of await Promise.all(resent)) {
      expect(done).toEqual({ ok: true, result: { paymentId: "w0" } });
    }
    await Promise.all(waiting);
    // The same id from another tab is another request; 6 payments so far, well within 30.
    const otherTab = route(pay("w0"), { ...page, tab: { id: 2 } });
    await answer();
    expect(await otherTab).toMatchObject({ ok: true });
  });

  it("counts a request for an unknown method against its site's rate, too", async () => {
    const { route } = guardedRouter();
    for (let i = 0; i < 120; i++) {
      const unknown = await route({ channel: "page", method: `nope-${i}` }, page);
      expect(unknown).toMatchObject({ ok: false, error: { code: ErrorCode.MethodNotFound } });
    }
    expect(await route({ channel: "page", method: "nope" }, page)).toMatchObject({
      ok: false,
      error: { code: ErrorCode.RateLimited },
    });
    expect(await route(status, page)).toMatchObject({ error: { code: ErrorCode.RateLimited } });
  });

  it("holds waiting payments for at most 64 sites at once", async () => {
    const { route, answer } = guardedRouter();
    const inTab = (origin: string, tab: number) => ({ ...from(origin), tab: { id: tab } });
    const waiting = Array.from({ length: 64 }, (_, i) =>
      route(pay("r"), inTab(`https://s${i}.example`, i)),
    );
    expect(await route(pay("r"), inTab("https://s64.example", 64))).toEqual({
      ok: false,
      error: {
        code: ErrorCode.TooManyPending,
        message:
          "Payment requests from 64 sites are already waiting; retry when one of them is answered",
      },
    });
    await answer();
    await Promise.all(waiting);
    const later = route(pay("r"), inTab("https://s64.example", 64));
    await answer();
    expect(await later).toMatchObject({ ok: true });
  });
});

describe("createRouter, one tab's share of waiting payments", () => {
  it("keeps room for other tabs' payments when one tab's frames of 64 sites each send one", async () => {
    const { route, answer } = guardedRouter(DEFAULT_PAGE_LIMITS);
    const frame = (i: number) => ({
      ...from(`https://f${i}.evil.example`),
      tab: { id: 7 },
      frameId: i + 1,
    });
    const evil = Array.from({ length: 64 }, (_, i) => route(pay("r"), frame(i)));
    const agent = route(pay("a"), page);
    await answer();
    expect(await agent).toEqual({ ok: true, result: { paymentId: "a" } });
    const answers = await Promise.all(evil);
    expect(answers.filter((done) => done.ok)).toHaveLength(4);
    expect(answers.at(-1)).toEqual({
      ok: false,
      error: {
        code: ErrorCode.TooManyPending,
        message:
          "Payment requests from 4 sites are already waiting in this tab; retry when one of them is answered",
      },
    });
  });

  it("keeps room for the tab's own page when four sites it frames each leave a payment waiting", async () => {
    const { route, answer } = guardedRouter(DEFAULT_PAGE_LIMITS);
    const frame = (i: number) => ({
      ...from(`https://ad${i}.example`),
      tab: { id: 7 },
      frameId: i + 1,
    });
    const framed = Array.from({ length: 4 }, (_, i) => route(pay("r"), frame(i)));
    const fifth = await route(pay("r"), frame(4));
    expect(fifth).toMatchObject({ ok: false, error: { code: ErrorCode.TooManyPending } });
    const own = route(pay("a"), { ...from("https://agent.example"), tab: { id: 7 }, frameId: 0 });
    await answer();
    expect(await own).toEqual({ ok: true, result: { paymentId: "a" } });
    expect((await Promise.all(framed)).every((done) => done.ok)).toBe(true);
  });
});

describe("diagnostics", () => {
  it("counts every request the router answers, by method, refused ones too", async () => {
    const before = diagnostics().requests;
    const route = router();
    await route({ channel: "page", method: "stipendex_status" }, page);
    await route({ channel: "page", method: "stipendex_status" }, page);
    await route({ channel: "ui", method: "ui_status" }, page);
    const after = diagnostics().requests;
    expect((after.stipendex_status ?? 0) - (before.stipendex_status ?? 0)).toBe(2);
    expect((after.ui_status ?? 0) - (before.ui_status ?? 0)).toBe(1);
  });

  it("counts requests for methods the wallet does not have under one name, not theirs", async () => {
    const before = diagnostics().requests;
    const route = router();
    for (const method of ["x".repeat(1000), "nope-1", "__proto__"]) {
      await route({ channel: "page", method }, page);
    }
    await route({ channel: "ui", method: "nope-2" }, ui);
    const after = diagnostics().requests;
    expect(Object.keys(after).filter((method) => !Object.hasOwn(before, method))).toEqual(
      Object.hasOwn(before, UNKNOWN_METHOD) ? [] : [UNKNOWN_METHOD],
    );
    expect((after[UNKNOWN_METHOD] ?? 0) - (before[UNKNOWN_METHOD] ?? 0)).toBe(4);
  });

  it("keeps how long each request took, from its message to its answer, by method", async () => {
    const route = createRouter({
      extensionId: ID,
      extensionBaseUrl: BASE,
      page: {
        stipendex_status: () =>
          new Promise((resolve) => setTimeout(() => resolve({ version: "t", origin: "o" }), 30)),
      } as unknown as PageHandlers,
      ui: {} as UiHandlers,
    });
    const kept = diagnostics().handlingMs.stipendex_status?.length ?? 0;
    await route({ channel: "page", method: "stipendex_status" }, page);
    await route({ channel: "ui", method: "nope" }, ui);
    const { handlingMs } = diagnostics();
    expect(handlingMs.stipendex_status).toHaveLength(Math.min(kept + 1, HANDLING_TIMES_KEPT));
    // Timers may fire a little early; the handler's wait is in the figure.
    expect(handlingMs.stipendex_status?.at(-1)).toBeGreaterThanOrEqual(25);
    expect(handlingMs[UNKNOWN_METHOD]?.at(-1)).toBeGreaterThanOrEqual(0);
  });

  it("keeps only the latest handling times", () => {
    for (let i = 0; i < HANDLING_TIMES_KEPT + 5; i++) noteHandlingTime("test_method", i);
    const times = diagnostics().handlingMs.test_method ?? [];
    expect(times).toHaveLength(HANDLING_TIMES_KEPT);
    expect(times[0]).toBe(5);
    expect(times.at(-1)).toBe(HANDLING_TIMES_KEPT + 4);
  });
});

describe("createProxyRouter", () => {
  const upstream = "http://127.0.0.1:4020/mcp";
  const challenge: PaymentChallenge = {
    transport: "mcp",
    server: upstream,
    tool: "web_search",
    arguments: { query: "x" },
    error: { code: -32402, message: "Payment required", data: { quote: "q" } },
  };

  function proxyRouter(seen: { origin: string; tabId: number | undefined }[] = []) {
    return createProxyRouter({
      page: {
        stipendex_pay: async (_params: unknown, context: { origin: string; tabId?: number }) => {
          seen.push({ origin: context.origin, tabId: context.tabId });
          return { paymentId: "p1" } satisfies PaymentAnswer;
        },
        stipendex_withdraw: async (
          params: { requestId: string },
          context: { origin: string; tabId?: number },
        ) => {
          seen.push({
            origin: `${context.origin} withdraws ${params.requestId}`,
            tabId: context.tabId,
          });
          return null;
        },
      } as unknown as PageHandlers,
      walletState: async () => ({ hasWallet: true, locked: true }),
    });
  }

  it("answers proxy_status with whether the wallet can pay", async () => {
    const answer = await proxyRouter()({ id: 1, upstream, method: "proxy_status" });
    expect(answer).toEqual({
      ok: true,
      result: { version: expect.any(String), hasWallet: true, locked: true },
    });
  });

  it("pays as the proxy's own caller, keyed by the upstream origin and never a page's", async () => {
    const seen: { origin: string; tabId: number | undefined }[] = [];
    const answer = await proxyRouter(seen)({
      id: 2,
      upstream,
      method: "stipendex_pay",
      params: { requestId: "r1", challenge },
    });
    expect(answer).toEqual({ ok: true, result: { paymentId: "p1" } });
    expect(seen).toEqual([{ origin: "proxy:http://127.0.0.1:4020", tabId: undefined }]);
  });

  it("withdraws a request as the same caller that asked to pay it", async () => {
    const seen: { origin: string; tabId: number | undefined }[] = [];
    const answer = await proxyRouter(seen)({
      id: 7,
      upstream,
      method: "stipendex_withdraw",
      params: { requestId: "r1" },
    });
    expect(answer).toEqual({ ok: true, result: null });
    expect(seen).toEqual([
      { origin: "proxy:http://127.0.0.1:4020 withdraws r1", tabId: undefined },
    ]);
  });

  it("refuses a price from any server but the proxy's upstream, HTTP ones too", async () => {
    const route = proxyRouter();
    const elsewhere = await route({
      id: 3,
      upstream,
      method: "stipendex_pay",
      params: { requestId: "r2", challenge: { ...challenge, server: "http://127.0.0.1:9/mcp" } },
    });
    expect(elsewhere).toMatchObject({ ok: false, error: { code: ErrorCode.Unauthorized } });
    const httpPrice = (url: string) => ({
      transport: "http",
      url,
      method: "POST",
      body: "{}",
      paymentRequiredHeader: null,
    });
    const http = await route({
      id: 4,
      upstream,
      method: "stipendex_pay",
      params: { requestId: "r3", challenge: httpPrice("http://127.0.0.1:4020/x") },
    });
    expect(http).toMatchObject({ ok: false, error: { code: ErrorCode.Unauthorized } });
  });

  // Seed 004: a server may price the tool call itself with HTTP 402 (an accepts[] body).
  it("takes an HTTP price for the upstream's own endpoint", async () => {
    const seen: { origin: string; tabId: number | undefined }[] = [];
    const answer = await proxyRouter(seen)({
      id: 8,
      upstream,
      method: "stipendex_pay",
      params: {
        requestId: "r4",
        challenge: {
          transport: "http",
          url: upstream,
          method: "POST",
          body: '{"x402Version":1,"accepts":[]}',
          paymentRequiredHeader: null,
        },
      },
    });
    expect(answer).toEqual({ ok: true, result: { paymentId: "p1" } });
    expect(seen).toEqual([{ origin: "proxy:http://127.0.0.1:4020", tabId: undefined }]);
  });

  it("checks the params like a page's, and refuses an upstream that is no http(s) URL", async () => {
    const route = proxyRouter();
    const bad = await route({ id: 5, upstream, method: "stipendex_pay", params: { challenge } });
    expect(bad).toMatchObject({ ok: false, error: { code: ErrorCode.InvalidParams } });
    const file = await route({ id: 6, upstream: "file:///x", method: "proxy_status" });
    expect(file).toMatchObject({ ok: false, error: { code: ErrorCode.InvalidRequest } });
  });
});
