import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentMiddleware } from "x402-express";
import { type Listening, listen } from "../../demo/listen";
import {
  AUTO_BUDGET,
  type Harness,
  makeHarness,
  quoteFor,
  RECEIVER,
  TEST_AUTO_BUDGET,
  until,
  X402_URL,
  x402HttpChallenge,
} from "../../tests/unit-support/payments/test-support";
import { RAIL } from "../../tests/unit-support/protocol/envelope/test-fixtures";
import {
  v1TwoOptionsBody,
  v2PaymentRequired,
  v2Requirement,
} from "../../tests/unit-support/protocol/x402/test-fixtures";
import type { ReceiptParams } from "../messages";
import { toJsonForm } from "../protocol/envelope/json-form";
import { encodeBase64Json } from "../protocol/x402/wire";
import {
  describeChallenge,
  type HeaderRule,
  PageOffers,
  type PageResponse,
  pageChallenge,
} from "./page-offers";

const PAGE_ORIGIN = new URL(X402_URL).origin;
const TAB = 7;
const v2Challenge = x402HttpChallenge(2);
const v2Header = (v2Challenge.transport === "http" && v2Challenge.paymentRequiredHeader) || "";

/** A top-level response in TAB, as webRequest reports it. */
function response(statusCode: number, headers: Record<string, string> = {}, url = X402_URL) {
  return {
    tabId: TAB,
    url,
    method: "GET",
    statusCode,
    headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
  } satisfies PageResponse;
}

async function rig(
  policy: Parameters<typeof makeHarness>[0] = {},
  pageFetch?: (h: Harness) => typeof fetch,
) {
  const h: Harness = await makeHarness(policy);
  const seen = {
    badges: [] as [number, boolean][],
    rules: new Map<number, HeaderRule>(),
    loads: [] as [number, string][],
    receipts: [] as [ReceiptParams, string][],
    fetched: [] as string[],
  };
  const offers = new PageOffers({
    session: h.session,
    fetch: async (input, init) => {
      seen.fetched.push(String(input));
      return pageFetch ? pageFetch(h)(input, init) : new Response("not a price", { status: 402 });
    },
    describe: describeChallenge({ ...h, now: () => h.clock.ms }),
    pay: (params, caller) => h.engine.pay(params, caller),
    withdraw: (requestId, caller) => h.engine.withdraw(requestId, caller),
    receipt: async (params, origin) => void seen.receipts.push([params, origin]),
    badge: async (tabId, offered) => void seen.badges.push([tabId, offered]),
    addRule: async (rule) => {
      // As the browser does: a session rule's id is unique.
      if (seen.rules.has(rule.id))
        throw new Error(`Rule with id ${rule.id} does not have a unique ID.`);
      seen.rules.set(rule.id, rule);
    },
    removeRule: async (id) => void seen.rules.delete(id),
    load: async (tabId, url) => void seen.loads.push([tabId, url]),
    now: () => h.clock.ms,
  });
  return { h, offers, seen };
}

/** The person's click on Pay in the popup, for the price it shows (ui_getPageOffer, then ui_payPage). */
async function payShown(offers: PageOffers) {
  return offers.pay(TAB, (await offers.view(TAB))?.viewId ?? "no offer shown");
}

describe("page offers", () => {
  it("offers a tab's x402 v2 paywall (badge and view) and forgets it when the tab shows another page", async () => {
    const { offers, seen } = await rig();
    await offers.responded(response(402, { "PAYMENT-REQUIRED": v2Header }));
    expect(await offers.view(TAB)).toMatchObject({
      url: X402_URL,
      origin: PAGE_ORIGIN,
      amount: { atomic: "10000", decimals: 6, symbol: "USDC" },
      paying: false,
    });
    expect(await offers.view(TAB + 1)).toBeNull();
    expect(seen.badges).toEqual([[TAB, true]]);
    expect(seen.fetched).toEqual([]);
    await offers.responded(response(200, {}, `${PAGE_ORIGIN}/free`));
    expect(await offers.view(TAB)).toBeNull();
    expect(seen.badges.at(-1)).toEqual([TAB, false]);
  });

  it("makes no offer for a 402 without a price, a POST, or a frame outside any tab", async () => {
    const { offers, seen } = await rig();
    await offers.responded(response(402));
    expect(seen.fetched).toEqual([X402_URL]);
    await offers.responded({ ...response(402, { "PAYMENT-REQUIRED": v2Header }), method: "POST" });
    await offers.responded({ ...response(402, { "PAYMENT-REQUIRED": v2Header }), tabId: -1 });
    expect(await offers.view(TAB)).toBeNull();
    expect(seen.badges).toEqual([]);
  });

  it("pays through the engine under the site's budget, loads the page once with the header, and files the load as the receipt", async () => {
    const { h, offers, seen } = await rig({
      policy: { origins: { [PAGE_ORIGIN]: TEST_AUTO_BUDGET } },
    });
    await offers.responded(response(402, { "PAYMENT-REQUIRED": v2Header }));
    const { paymentId } = await payShown(offers);
    const payment = await h.db.payments.get(paymentId);
    expect(payment).toMatchObject({ origin: PAGE_ORIGIN, state: "signed" });
    expect(payment?.resource).toEqual({ kind: "http", method: "GET", url: X402_URL });
    const [rule] = [...seen.rules.values()];
    expect(rule?.condition).toEqual({
      urlFilter: `|${X402_URL}|`,
      isUrlFilterCaseSensitive: true,
      requestMethods: ["get"],
      resourceTypes: ["main_frame"],
      tabIds: [TAB],
    });
    expect(rule?.action.requestHeaders[0]?.header).toBe("PAYMENT-SIGNATURE");
    expect(seen.loads).toEqual([[TAB, X402_URL]]);
    expect(await offers.view(TAB)).toMatchObject({ paying: true });

    await offers.responded(response(200, { "PAYMENT-RESPONSE": "settled" }));
    expect(seen.rules.size).toBe(0);
    expect(seen.receipts).toEqual([[{ paymentId, status: 200, receipt: "settled" }, PAGE_ORIGIN]]);
    expect(await offers.view(TAB)).toBeNull();
  });

  // Hostile review: a tab closed (or sent elsewhere) while its paid load was under way was filed
  // "signed but never sent", though the browser may have sent the payment already.
  it("files a paid load given up for a closed tab or another page as unanswered, not unsent", async () => {
    const auto = { policy: { origins: { [PAGE_ORIGIN]: TEST_AUTO_BUDGET } } };
    for (const leave of ["close", "navigate"] as const) {
      const { offers, seen } = await rig(auto);
      await offers.responded(response(402, { "PAYMENT-REQUIRED": v2Header }));
      const { paymentId } = await payShown(offers);
      if (leave === "close") await offers.closed(TAB);
      else await offers.responded(response(200, {}, `${PAGE_ORIGIN}/elsewhere`));
      expect(seen.loads, leave).toEqual([[TAB, X402_URL]]);
      expect(seen.rules.size, leave).toBe(0);
      expect(seen.receipts, leave).toEqual([
        [{ paymentId, status: 0, receipt: null, unanswered: "no-response" }, PAGE_ORIGIN],
      ]);
    }
  });

  // Hostile review: a paid load whose connection dropped (the browser sent it again, four times)
  // was filed "signed but never sent" once the tab showed another page.
  it("files a paid load that failed as unanswered, not unsent, its rule gone before the browser retries it", async () => {
    const { offers, seen } = await rig({
      policy: { origins: { [PAGE_ORIGIN]: TEST_AUTO_BUDGET } },
    });
    await offers.responded(response(402, { "PAYMENT-REQUIRED": v2Header }));
    const { paymentId } = await payShown(offers);
    await offers.failed({ tabId: TAB, url: `${PAGE_ORIGIN}/other` });
    await offers.failed({ tabId: TAB + 1, url: X402_URL });
    expect(seen.rules.size).toBe(1);
    await offers.failed({ tabId: TAB, url: X402_URL });
    expect(seen.rules.size).toBe(0);
    await offers.responded(response(200, {}, `${PAGE_ORIGIN}/elsewhere`));
    expect(seen.receipts).toEqual([
      [{ paymentId, status: 0, receipt: null, unanswered: "no-response" }, PAGE_ORIGIN],
    ]);
    expect(await offers.view(TAB)).toBeNull();
  });

  it("withdraws the payment the window asks about when its tab closes or goes elsewhere: nothing signed", async () => {
    for (const leave of ["close", "navigate"] as const) {
      const { h, offers, seen } = await rig();
      await offers.responded(response(402, { "PAYMENT-REQUIRED": v2Header }));
      const paying = payShown(offers);
      await until(async () => (await h.approvals.pending()).length === 1);
      if (leave === "close") await offers.closed(TAB);
      else await offers.responded(response(200, {}, `${PAGE_ORIGIN}/elsewhere`));
      await expect(paying, leave).rejects.toMatchObject({ code: "user-declined" });
      expect(await h.approvals.pending(), leave).toEqual([]);
      const [payment] = await h.db.payments.toArray();
      expect(payment?.state, leave).toBe("declined");
      expect(payment?.proof, leave).toBeUndefined();
      expect(seen.loads, leave).toEqual([]);
    }
  });

  it("asks again on the next click after a decline, and never pays without an answer", async () => {
    const { h, offers, seen } = await rig();
    await offers.responded(response(402, { "PAYMENT-REQUIRED": v2Header }));
    const decide = async (decision: "approve" | "decline") => {
      await until(async () => (await h.approvals.pending()).length === 1);
      const [pending] = await h.approvals.pending();
      await h.approvals.decide({ approvalId: pending?.id ?? "", decision });
    };
    const declined = payShown(offers);
    await decide("decline");
    await expect(declined).rejects.toMatchObject({ code: "user-declined" });
    expect(seen.rules.size).toBe(0);
    expect(seen.loads).toEqual([]);
    const approved = payShown(offers);
    await decide("approve");
    const { paymentId } = await approved;
    expect((await h.db.payments.get(paymentId))?.state).toBe("signed");
    expect(seen.loads).toEqual([[TAB, X402_URL]]);
  });

  it("asks a Stipendex page for a fresh Quote when the one it offered expired before the click, and pays that one", async () => {
    const pageUrl = `${RECEIVER}/search?q=x`;
    const issued: string[] = [];
    const { h, offers, seen } = await rig({}, (h) => async () => {
      const iat = Math.floor(h.clock.ms / 1000);
      const jws = await quoteFor(h.receiver, { iat, exp: iat + 120 });
      issued.push(jws);
      return Response.json({ quote: toJsonForm("quote", jws) }, { status: 402 });
    });
    await offers.responded(response(402, {}, pageUrl));
    expect(await offers.view(TAB)).toMatchObject({ url: pageUrl, paying: false });
    expect(issued).toHaveLength(1);

    h.clock.ms += 121_000;
    const first = payShown(offers);
    // Clicked again while the window asks about the fresh Quote: the second click waits for the
    // first, one approval, one load, nothing reported unused.
    await until(async () => (await h.approvals.pending()).length === 1);
    const again = payShown(offers);
    const [pending] = await h.approvals.pending();
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "approve" });
    const [{ paymentId }, second] = await Promise.all([first, again]);
    expect(second.paymentId).toBe(paymentId);
    expect(seen.receipts).toEqual([]);
    expect(issued).toHaveLength(2);
    expect(seen.fetched).toEqual([pageUrl, pageUrl]);
    const payment = await h.db.payments.get(paymentId);
    expect(payment).toMatchObject({ origin: RECEIVER, state: "signed" });
    expect(payment?.offer.quote?.jws).toBe(issued[1]);
    expect(seen.rules.size).toBe(1);
    expect(seen.loads).toEqual([[TAB, pageUrl]]);
  });

  it("pays nothing when the tab holds another price than the one shown (the page navigated while the popup was open)", async () => {
    const { h, offers, seen } = await rig({
      policy: { origins: { [PAGE_ORIGIN]: TEST_AUTO_BUDGET } },
    });
    await offers.responded(response(402, { "PAYMENT-REQUIRED": v2Header }));
    const shown = await offers.view(TAB);
    if (!shown) return expect.unreachable("no offer shown");
    // The page sends its tab to another of its paywalls, at another price, before the click.
    const dearer = encodeBase64Json({
      ...v2PaymentRequired,
      resource: { ...v2PaymentRequired.resource, url: `${PAGE_ORIGIN}/other` },
      accepts: [{ ...v2Requirement, amount: "90000" }],
    });
    await offers.responded(response(402, { "PAYMENT-REQUIRED": dearer }, `${PAGE_ORIGIN}/other`));
    await expect(offers.pay(TAB, shown.viewId)).rejects.toMatchObject({
      code: "page-price-changed",
      message: expect.stringMatching(/another price than the one you were shown.*nothing was paid/),
    });
    expect(await h.db.payments.count()).toBe(0);
    expect(seen.loads).toEqual([]);
    // What the tab holds now is shown, and paid on its own click.
    const now = await offers.view(TAB);
    expect(now).toMatchObject({ url: `${PAGE_ORIGIN}/other`, amount: { atomic: "90000" } });
    const { paymentId } = await offers.pay(TAB, now?.viewId ?? "");
    expect(await h.db.payments.get(paymentId)).toMatchObject({ amount: "90000", state: "signed" });
  });

  it("pays nothing when, asked again for an expired Quote, the page names another price than the one shown", async () => {
    const pageUrl = `${RECEIVER}/search?q=x`;
    let asked = 0;
    const { h, offers, seen } = await rig({}, (h) => async () => {
      asked += 1;
      const iat = Math.floor(h.clock.ms / 1000);
      const dearer = {
        rails: [{ ...RAIL, amount: "50000" }],
        total: { amount: "0.05", currency: "USD" },
      };
      const jws = await quoteFor(h.receiver, { iat, exp: iat + 120, ...(asked > 1 ? dearer : {}) });
      return Response.json({ quote: toJsonForm("quote", jws) }, { status: 402 });
    });
    await offers.responded(response(402, {}, pageUrl));
    const shown = await offers.view(TAB);
    expect(shown?.amount.atomic).toBe("5000");
    h.clock.ms += 121_000;
    await expect(offers.pay(TAB, shown?.viewId ?? "")).rejects.toMatchObject({
      code: "page-price-changed",
    });
    expect(await h.approvals.pending()).toEqual([]);
    expect(await h.db.payments.count()).toBe(0);
    expect(seen.loads).toEqual([]);
    expect((await offers.view(TAB))?.amount.atomic).toBe("50000");
  });

  it("pays nothing when, asked again for an expired Quote, the page no longer names a price: the offer goes", async () => {
    const pageUrl = `${RECEIVER}/search?q=x`;
    let asked = 0;
    const { h, offers, seen } = await rig(
      { policy: { origins: { [RECEIVER]: AUTO_BUDGET } } },
      (h) => async () => {
        asked += 1;
        if (asked > 1) return new Response("free now", { status: 200 });
        const iat = Math.floor(h.clock.ms / 1000);
        const jws = await quoteFor(h.receiver, { iat, exp: iat + 120 });
        return Response.json({ quote: toJsonForm("quote", jws) }, { status: 402 });
      },
    );
    await offers.responded(response(402, {}, pageUrl));
    h.clock.ms += 100_000;
    await expect(payShown(offers)).rejects.toThrow(/no longer asks for a payment/);
    expect(await offers.view(TAB)).toBeNull();
    expect(await h.db.payments.count()).toBe(0);
    expect(seen.loads).toEqual([]);
  });

  it("pays once for two clicks while the window asks: one approval, one rule, one load", async () => {
    const { h, offers, seen } = await rig();
    await offers.responded(response(402, { "PAYMENT-REQUIRED": v2Header }));
    const first = payShown(offers);
    const second = payShown(offers);
    await until(async () => (await h.approvals.pending()).length === 1);
    const [pending] = await h.approvals.pending();
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "approve" });
    const [a, b] = await Promise.all([first, second]);
    expect(b).toEqual(a);
    expect(seen.rules.size).toBe(1);
    expect(seen.loads).toEqual([[TAB, X402_URL]]);
    expect(await h.db.payments.count()).toBe(1);
  });

  it("reports the payment unused when the browser refuses the rule that would carry it", async () => {
    const { h, offers, seen } = await rig({
      policy: { origins: { [PAGE_ORIGIN]: TEST_AUTO_BUDGET } },
    });
    await offers.responded(response(402, { "PAYMENT-REQUIRED": v2Header }));
    // A rule of that id is there already: the browser refuses another.
    const taken = { id: TAB + 1 } as HeaderRule;
    seen.rules.set(taken.id, taken);
    await expect(payShown(offers)).rejects.toThrow(/refused to load .* nothing was sent/);
    const [payment] = await h.db.payments.toArray();
    expect(seen.receipts).toEqual([
      [{ paymentId: payment?.id, status: 0, receipt: null, unanswered: "not-sent" }, PAGE_ORIGIN],
    ]);
    expect(seen.loads).toEqual([]);
    expect(await offers.view(TAB)).toMatchObject({ paying: false });
    // The next click is a new payment, not the one reported unused.
    seen.rules.clear();
    const { paymentId } = await payShown(offers);
    expect(paymentId).not.toBe(payment?.id);
    expect(seen.loads).toEqual([[TAB, X402_URL]]);
  });

  it("refuses to pay a tab that shows no offer", async () => {
    const { offers } = await rig();
    await expect(payShown(offers)).rejects.toMatchObject({ name: "RpcError" });
  });
});

describe("describeChallenge", () => {
  it("tells the popup the description of the option it would pay, not of accepts[0]", async () => {
    const h = await makeHarness({ policy: { networks: ["eip155:84532"] } });
    const describe = describeChallenge({ ...h, now: () => h.clock.ms });
    const seen = await describe(
      {
        transport: "http",
        url: X402_URL,
        method: "GET",
        body: JSON.stringify(v1TwoOptionsBody),
        paymentRequiredHeader: null,
      },
      PAGE_ORIGIN,
    );
    expect(seen.description).toBe("Full report, 5000 pages");
  });
});

describe("pageChallenge against the official x402 v1 middleware", () => {
  let server: Listening;
  beforeAll(async () => {
    const app = express();
    app.use(
      paymentMiddleware(
        "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
        { "GET /article": { price: "$0.01", network: "base-sepolia" } },
        { url: "http://127.0.0.1:9/unused" },
      ),
    );
    server = await listen(app, 0);
  });
  afterAll(() => server.close());

  it("asks the page again for JSON, since a browser gets the HTML paywall with no header", async () => {
    const url = `${server.url}/article`;
    const page = await fetch(url, {
      headers: { accept: "text/html", "user-agent": "Mozilla/5.0" },
    });
    expect(page.status).toBe(402);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    await page.body?.cancel();
    const challenge = await pageChallenge(
      { tabId: TAB, url, method: "GET", statusCode: 402, headers: [] },
      fetch,
    );
    expect(challenge).toMatchObject({ transport: "http", url, method: "GET" });
    expect(JSON.parse(challenge?.transport === "http" ? challenge.body : "")).toMatchObject({
      x402Version: 1,
      accepts: [{ maxAmountRequired: "10000" }],
    });
  });
});
