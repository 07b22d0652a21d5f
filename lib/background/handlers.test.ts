import { describe, expect, it, vi } from "vitest";
import {
  AGENT,
  AUTO_BUDGET,
  type Harness,
  MCP_SERVER,
  makeHarness,
  PASSWORD,
  SEARCH_CALL,
  stipendexHttpChallenge,
  stipendexMcpChallenge,
  TEST_AUTO_BUDGET,
  until,
  x402HttpChallenge,
} from "../../tests/unit-support/payments/test-support";
import { ErrorCode, type PayParams } from "../messages";
import { encodeBase64Json } from "../protocol/x402/wire";
import { STORAGE_KEYS } from "../storage-keys";
import { recordSettlement } from "../wallet/ledger";
import { createPageHandlers, createUiHandlers, type WalletServices } from "./handlers";
import { createRouter, type PageContext, type UiHandlers } from "./router";
import { RpcError } from "./rpc-error";

const EXTENSION = "chrome-extension://abcdefghijklmnop/";
const ui = { url: `${EXTENSION}popup.html`, tabId: undefined };
const page = (origin: string): PageContext => ({ origin, tabId: 1, frameId: 0 });

function services(h: Harness): WalletServices {
  return {
    db: h.db,
    session: h.session,
    registry: h.registry,
    descriptors: h.descriptors,
    engine: h.engine,
    approvals: h.approvals,
    policy: h.policy,
    wallet: h.wallet,
    injectMcpHook: h.injectMcpHook,
    endpointFor: h.endpointFor,
    balances: h.balances,
    settlements: h.settlements,
    receipts: h.receipts,
    extensionBaseUrl: EXTENSION,
    now: () => h.clock.ms,
  };
}

async function handlers(options: Parameters<typeof makeHarness>[0] = {}) {
  const h = await makeHarness(options);
  return { h, pageApi: createPageHandlers(services(h)), uiApi: createUiHandlers(services(h)) };
}

describe("page handlers", () => {
  it("answer for the origin the browser reported, never one named in the params", async () => {
    const { h, pageApi } = await handlers({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    expect(await pageApi.stipendex_status(undefined, page(AGENT))).toEqual({
      version: expect.any(String),
      origin: AGENT,
    });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const forged = { requestId: "r", challenge, origin: "https://evil.example" } as PayParams;
    const answer = await pageApi.stipendex_pay(forged, page(AGENT));
    expect((await h.db.payments.get(answer.paymentId))?.origin).toBe(AGENT);
    await expect(
      pageApi.stipendex_receipt(
        { paymentId: answer.paymentId, status: 200, receipt: null },
        page("https://evil.example"),
      ),
    ).rejects.toMatchObject({ name: "PaymentError", code: "unknown-payment" });
  });

  it("reports a replayed Quote as InvalidQuote", async () => {
    const { h, pageApi } = await handlers({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    await pageApi.stipendex_pay({ requestId: "a", challenge }, page(AGENT));
    await expect(
      pageApi.stipendex_pay({ requestId: "b", challenge }, page(AGENT)),
    ).rejects.toMatchObject({
      rpcCode: ErrorCode.InvalidQuote,
      data: { reason: "unreadable-challenge" },
    });
  });

  it("files MCP pricing under the reporting page's origin; each site reads only its own", async () => {
    const { pageApi, uiApi } = await handlers();
    const server = "https://mcp.example/mcp";
    const tools = [{ name: "search", pricing: { model: "per-call", estimate: "0.005 USD" } }];
    const forged = { server, tools, origins: ["https://c.example"] };
    expect(await pageApi.stipendex_reportMcpServer(forged, page("https://a.example"))).toBeNull();
    const evil = {
      server,
      stipendexPayments: { version: "0.1" },
      tools: [{ name: "search", pricing: { estimate: "1 USD" } }],
    };
    await pageApi.stipendex_reportMcpServer(evil, page("https://b.example"));

    const report = { server, tools };
    expect(await uiApi.ui_getPricing({ origin: "https://a.example" }, ui)).toEqual([report]);
    expect(await uiApi.ui_getPricing({ origin: "https://b.example" }, ui)).toEqual([evil]);
    expect(await uiApi.ui_getPricing({ origin: "https://c.example" }, ui)).toEqual([]);
    expect(await pageApi.stipendex_getPricing({ server }, page("https://a.example"))).toEqual(
      report,
    );
    expect(await pageApi.stipendex_getPricing({ server }, page("https://c.example"))).toBeNull();
    expect(
      await pageApi.stipendex_getPricing({ server: "https://none.example" }, page(AGENT)),
    ).toBeNull();
    expect(await pageApi.stipendex_getPricing({ server: "__proto__" }, page(AGENT))).toBeNull();
  });

  it("keeps the pricing book in storage.session bounded, however many servers a page reports", async () => {
    const { h, pageApi, uiApi } = await handlers();
    const origin = "https://flood.example";
    for (let i = 0; i < 1_000; i++) {
      await pageApi.stipendex_reportMcpServer(
        { server: `https://s${i}.example/mcp` },
        page(origin),
      );
    }
    const book = (await h.session.get(STORAGE_KEYS.pricing)) as unknown[];
    expect(book).toHaveLength(50);
    expect(await uiApi.ui_getPricing({ origin }, ui)).toHaveLength(50);
  });
});

describe("page handlers behind the router", () => {
  it("runs a pay the relay sends again while the person decides once: both get its signed answer", async () => {
    const { h, pageApi } = await handlers();
    const engine = vi.spyOn(h.engine, "pay");
    const id = "abcdefghijklmnop";
    const route = createRouter({
      extensionId: id,
      extensionBaseUrl: EXTENSION,
      page: pageApi,
      ui: {} as UiHandlers,
    });
    const sender = { id, url: `${AGENT}/app`, tab: { id: 1 }, frameId: 0 };
    const params = { requestId: "same", challenge: x402HttpChallenge(2) };
    const message = { channel: "page", method: "stipendex_pay", params };
    const first = route(message, sender);
    await until(async () => (await h.approvals.pending()).length === 1);
    const resent = route(message, sender);
    // Time enough for a second run to reach the same approval, were there one.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [pending] = await h.approvals.pending();
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "approve" });
    const answer = await first;
    expect(answer).toMatchObject({ ok: true, result: { paymentId: pending?.id } });
    expect(await resent).toEqual(answer);
    expect(engine).toHaveBeenCalledTimes(1);
    expect(await h.db.payments.count()).toBe(1);
    expect((await h.db.payments.get(pending?.id ?? ""))?.state).toBe("signed");
  });
});

describe("ui handlers", () => {
  it("will not approve while locked, shows pending as needing unlock, and still lets one decline", async () => {
    const { h, pageApi, uiApi } = await handlers({ locked: true });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = pageApi.stipendex_pay({ requestId: "l", challenge }, page(AGENT));
    await until(async () => (await h.approvals.pending()).length === 1);
    const [pending] = await uiApi.ui_listPending(undefined, ui);
    expect(pending?.needsUnlock).toBe(true);
    const approvalId = pending?.id ?? "";

    const approving = uiApi.ui_decide({ approvalId, decision: "approve" }, ui);
    await expect(approving).rejects.toBeInstanceOf(RpcError);
    await expect(approving).rejects.toMatchObject({ rpcCode: ErrorCode.Locked });
    expect(await h.approvals.pending()).toHaveLength(1);

    expect(await uiApi.ui_decide({ approvalId, decision: "decline" }, ui)).toBeNull();
    await expect(paid).rejects.toMatchObject({ code: "user-declined" });
  });

  it("deletes history only when confirmed, keeping a payment still being settled", async () => {
    const { h, pageApi, uiApi } = await handlers({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    await pageApi.stipendex_pay({ requestId: "h", challenge }, page(AGENT));
    await expect(
      uiApi.ui_deleteHistory({} as unknown as { confirm: true }, ui),
    ).rejects.toMatchObject({ rpcCode: ErrorCode.InvalidParams });
    expect(await h.db.payments.count()).toBe(1);
    expect(await uiApi.ui_deleteHistory({ confirm: true }, ui)).toEqual({ deleted: 0, kept: 1 });
    expect(await h.db.payments.count()).toBe(1);
  });

  it("refuses a Quote paid and settled before the history was deleted, while it is still valid", async () => {
    const { h, pageApi, uiApi } = await handlers({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const first = await pageApi.stipendex_pay({ requestId: "a", challenge }, page(AGENT));
    // The chain showed it collected: nothing left to ask about it.
    await recordSettlement(h.db, first.paymentId, {
      status: "confirmed",
      transaction: `0x${"cd".repeat(32)}`,
      blockNumber: "1",
      checkedAt: h.clock.ms,
    });
    expect(await uiApi.ui_deleteHistory({ confirm: true }, ui)).toEqual({ deleted: 0, kept: 1 });
    // The page sends the same Quote again within its lifetime: no second signature.
    await expect(
      pageApi.stipendex_pay({ requestId: "b", challenge }, page(AGENT)),
    ).rejects.toMatchObject({ rpcCode: ErrorCode.InvalidQuote });
  });

  it("has the tracker look at a signed payment whose page never reports back", async () => {
    const { h, pageApi } = await handlers({ policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } });
    // The worker started with nothing to settle: its pass left the alarm off.
    await h.settlements.run();
    expect(h.settlementAlarms).toEqual([undefined]);
    // The tab closes during the paid retry: no stipendex_receipt ever comes.
    const { paymentId } = await pageApi.stipendex_pay(
      { requestId: "gone", challenge: x402HttpChallenge(2) },
      page(AGENT),
    );
    expect((await h.db.payments.get(paymentId))?.state).toBe("signed");
    await until(async () => h.settlementAlarms.at(-1) !== undefined);
    // Armed once: the next payments find it armed soon enough.
    await pageApi.stipendex_pay(
      { requestId: "next", challenge: x402HttpChallenge(2) },
      page(AGENT),
    );
    expect(h.settlementAlarms).toHaveLength(2);
  });

  it("asks a chain whose RPC endpoint the person set about its waiting payments at once, not an hour later", async () => {
    const { h, pageApi, uiApi } = await handlers({
      policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } },
    });
    const { paymentId } = await pageApi.stipendex_pay(
      { requestId: "x", challenge: x402HttpChallenge(2) },
      page(AGENT),
    );
    const payment = await h.db.payments.get(paymentId);
    if (!payment) return expect.unreachable("not recorded");
    // As the tracker leaves one it had no endpoint for.
    const anHourOn = h.clock.ms + 3_600_000;
    await h.db.payments.update(paymentId, { checkAt: anHourOn });
    const node = "http://127.0.0.1:9/own-node";
    const view = await uiApi.ui_getPolicy(undefined, ui);
    await uiApi.ui_setPolicy({ ...view, rpcEndpoints: { [payment.network]: node } }, ui);
    // Nothing answers there: the node is left alone for 30 s, not the hour.
    await until(async () => ((await h.db.payments.get(paymentId))?.checkAt ?? 0) < anHourOn, 200);
  });

  it("checks at unlock the receipts that came while the wallet was locked", async () => {
    const { h, pageApi, uiApi } = await handlers({
      policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } },
    });
    const { paymentId } = await pageApi.stipendex_pay(
      { requestId: "x", challenge: x402HttpChallenge(2) },
      page(AGENT),
    );
    await uiApi.ui_lock(undefined, ui);
    const settle = { success: true, transaction: `0x${"ab".repeat(32)}`, network: "eip155:84532" };
    const receipt = encodeBase64Json({ ...settle, payer: h.unlocked.address });
    expect(
      await pageApi.stipendex_receipt({ paymentId, status: 200, receipt }, page(AGENT)),
    ).toEqual({ state: "signed" });
    expect((await h.db.payments.get(paymentId))?.heldReceipt).toBeDefined();

    await uiApi.ui_unlock({ password: PASSWORD }, ui);
    // Sooner than the pass a receipt asks for (a second later): unlocking asks for its own.
    await until(async () => (await h.db.payments.get(paymentId))?.receipt !== undefined, 100);
    const filed = await h.db.payments.get(paymentId);
    expect(filed?.heldReceipt).toBeUndefined();
    // An x402 settle response is a claim the chain check confirms, not a settlement.
    expect(filed?.state).toBe("signed");
  });

  it("pays at unlock, under its budget, what waited only because the wallet was locked", async () => {
    const { h, pageApi, uiApi } = await handlers({
      policy: { origins: { [AGENT]: AUTO_BUDGET } },
      locked: true,
    });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = pageApi.stipendex_pay({ requestId: "l", challenge }, page(AGENT));
    await until(async () => (await h.approvals.pending()).length === 1);
    const [asked] = await uiApi.ui_listPending(undefined, ui);
    expect(asked).toMatchObject({ needsUnlock: true, paidOnUnlock: true });

    await uiApi.ui_unlock({ password: PASSWORD }, ui);
    const { paymentId } = await paid;
    expect((await h.db.payments.get(paymentId))?.state).toBe("signed");
    expect(await uiApi.ui_listPending(undefined, ui)).toEqual([]);
    expect(h.windows.closed).toHaveLength(1);
  });

  it("arms the settlement alarm for when an elicitation charged ahead expires unused", async () => {
    const { h, pageApi } = await handlers({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const { jws } = await stipendexMcpChallenge(h.receiver);
    const answer = await pageApi.stipendex_elicit(
      {
        server: MCP_SERVER,
        call: SEARCH_CALL,
        params: { _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws } } },
      },
      page(AGENT),
    );
    expect(answer.action).toBe("accept");
    const [approved] = await h.db.payments.toArray();
    const expiresAt = (approved?.offer.quote?.expiresAt ?? 0) * 1000;
    // A pass a moment later (as after a receipt) finds it not due yet and arms the alarm for then.
    await until(async () => h.settlementAlarms.includes(expiresAt), 600);
  });

  it("refuses a second wallet in the same profile", async () => {
    const { uiApi } = await handlers();
    await expect(uiApi.ui_createWallet({ password: "another one" }, ui)).rejects.toMatchObject({
      rpcCode: ErrorCode.InvalidRequest,
    });
  });

  it("reports the extension's own origin and the wallet state", async () => {
    const { h, uiApi } = await handlers();
    expect((await uiApi.ui_status(undefined, ui)).origin).toBe(EXTENSION);
    expect(await uiApi.ui_getState(undefined, ui)).toMatchObject({
      hasWallet: true,
      locked: false,
      address: h.unlocked.address,
    });
  });
});

describe("stipendex_loadMcp", () => {
  it("runs the MCP hook in the asking frame only, and refuses a sender outside a tab", async () => {
    const { h, pageApi } = await handlers();
    expect(
      await pageApi.stipendex_loadMcp(undefined, {
        origin: "https://a.example",
        tabId: 4,
        frameId: 2,
      }),
    ).toBeNull();
    expect(h.injected).toEqual([{ tabId: 4, frameId: 2 }]);
    await expect(
      pageApi.stipendex_loadMcp(undefined, {
        origin: "https://a.example",
        tabId: undefined,
        frameId: 0,
      }),
    ).rejects.toMatchObject({ rpcCode: ErrorCode.Unauthorized });
    expect(h.injected).toHaveLength(1);
  });
});
