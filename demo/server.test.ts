import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CancelledNotificationSchema,
  ElicitRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { base64url, decodeJwt, generateKeyPair } from "jose";
import type { LocalAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalize, sha256Base64url } from "../lib/protocol/canonical-json";
import { isEvmRail, type Rail } from "../lib/protocol/envelope/claims";
import { signConfirmation } from "../lib/protocol/envelope/confirmation";
import { checkDescriptor, type Descriptor } from "../lib/protocol/envelope/descriptor";
import { signEnvelope } from "../lib/protocol/envelope/envelope-jwt";
import { readJsonForm, toJsonForm } from "../lib/protocol/envelope/json-form";
import { signProof } from "../lib/protocol/envelope/proof";
import { type VerifiedQuote, verifyQuote } from "../lib/protocol/envelope/quote";
import { readReceiptValue, verifyReceipt } from "../lib/protocol/envelope/receipt";
import { type WalletSigner, walletSigner } from "../lib/protocol/envelope/wallet-key";
import type { PaymentOption } from "../lib/protocol/offer";
import { signTransferWithAuthorization } from "../lib/protocol/rails/eip3009";
import { createRegistry } from "../lib/protocol/rails/registry";
import { readHttp402 } from "../lib/protocol/x402/http";
import { readMcpPaymentRequired, readMcpSettleResponse } from "../lib/protocol/x402/mcp";
import { buildPaymentPayload, mcpPaymentMeta, paymentHeader } from "../lib/protocol/x402/payment";
import { readSettleResponseHeaders } from "../lib/protocol/x402/settlement";
import { PRICES } from "./mcp/tools";
import { curlLine, type PaidEndpoint, paidEndpoints } from "./paid-endpoints";
import { type Demo, HTTP_PRICES, startDemo } from "./server";

let demo: Demo;
let payer: LocalAccount;
let wallet: WalletSigner;
let descriptor: Descriptor;
const registry = createRegistry();
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  demo = await startDemo();
  const first = demo.chain.accounts.payers[0];
  if (!first) throw new Error("no payer account");
  payer = privateKeyToAccount(first.privateKey);
  wallet = await walletSigner(await generateKeyPair("Ed25519", { extractable: true }));
  const response = await fetch(`${demo.urls.stipendex}/.well-known/stipendex.json`);
  descriptor = checkDescriptor(await response.json(), demo.urls.stipendex);
});

afterAll(async () => {
  await demo?.stop();
});

const payeeBalance = () => demo.chain.balanceOf(demo.rail.payTo);

function railOption(rail: Rail): PaymentOption {
  return {
    scheme: "exact",
    network: rail.network as PaymentOption["network"],
    chainId: Number(rail.network.split(":")[1]),
    asset: rail.asset as PaymentOption["asset"],
    amount: BigInt(rail.amount),
    decimals: rail.decimals,
    symbol: rail.symbol,
    payTo: rail.payTo as PaymentOption["payTo"],
    maxTimeoutSeconds: rail.maxTimeoutSeconds,
    eip712: { name: rail.extra.name, version: rail.extra.version },
    raw: rail,
  };
}

async function readQuote(form: unknown): Promise<VerifiedQuote> {
  return verifyQuote(readJsonForm(form, "quote"), { descriptor });
}

async function confirm(quote: VerifiedQuote, mode: "policy" | "elicitation" = "policy") {
  const iat = now();
  return signConfirmation(
    {
      aud: descriptor.id,
      jti: crypto.randomUUID(),
      iat,
      exp: iat + 120,
      qh: quote.hash,
      origin: demo.urls.agent,
      decision: "approve",
      mode,
      ...(mode === "policy" ? { rule: "test" } : {}),
      humanPresent: mode !== "policy",
      shown: { description: quote.claims.description, total: quote.claims.total, remaining: {} },
    },
    wallet,
  );
}

interface PayOptions {
  /** Sign the authorization for less than the rail asks (and bypass signProof's own check). */
  underpay?: boolean;
  /** Sign the EIP-3009 authorization with another key than `from`. */
  wrongSigner?: boolean;
  ch?: string;
}

/** The wallet side of a Stipendex payment, built from lib/protocol only. */
async function pay(quote: VerifiedQuote, options: PayOptions = {}): Promise<string> {
  const rail = quote.claims.rails.find(isEvmRail);
  if (!rail) throw new Error("quote without an EVM rail");
  const option = railOption(rail);
  const signer = options.wrongSigner
    ? { ...privateKeyToAccount(demo.chain.accounts.deployer.privateKey), address: payer.address }
    : payer;
  const payment = await signTransferWithAuthorization(
    signer as LocalAccount,
    options.underpay ? { ...option, amount: option.amount - 1n } : option,
    { now: now() },
  );
  const iat = now();
  const claims = {
    aud: descriptor.id,
    jti: crypto.randomUUID(),
    iat,
    exp: Number(payment.authorization.validBefore),
    qh: quote.hash,
    ch: options.ch ?? (await sha256Base64url(await confirm(quote))),
    rail,
    payment,
  };
  if (options.underpay) {
    return signEnvelope(
      "proof",
      { ...claims, iss: wallet.id },
      { alg: wallet.alg, kid: wallet.kid, jwk: wallet.publicJwk },
      wallet.privateKey,
    );
  }
  return signProof(claims, wallet);
}

describe("Stipendex HTTP binding", () => {
  const url = () => `${demo.urls.stipendex}/api/search?q=model%20context`;

  it("answers 402 with a signed Quote bound to the exact URL, then settles a Proof and signs a Receipt", async () => {
    const first = await fetch(url());
    expect(first.status).toBe(402);
    const quote = await readQuote(((await first.json()) as { quote: unknown }).quote);
    expect(quote.claims.resource).toEqual({ http: { method: "GET", url: url() } });
    expect(quote.claims.rails[0]?.amount).toBe(HTTP_PRICES.stipendex.toString());

    const before = await payeeBalance();
    const proof = await pay(quote);
    const paid = await fetch(url(), { headers: { "Stipendex-Payment": proof } });
    expect(paid.status).toBe(200);
    const body = await paid.text();
    expect(JSON.parse(body).results.length).toBeGreaterThan(0);
    const receipt = await verifyReceipt(paid.headers.get("Stipendex-Receipt"), {
      descriptor,
      quoteHash: quote.hash,
      proofHash: await sha256Base64url(proof),
      walletId: wallet.id,
      settlement: {
        network: "eip155:84532",
        asset: demo.rail.asset,
        amount: HTTP_PRICES.stipendex.toString(),
        payer: payer.address,
      },
    });
    expect(receipt.claims.status).toBe("settled");
    expect(receipt.claims.resultHash).toBe(await sha256Base64url(body));
    expect(await payeeBalance()).toBe(before + HTTP_PRICES.stipendex);

    // The same Proof again: refused, nothing more moves.
    const replay = await fetch(url(), { headers: { "Stipendex-Payment": proof } });
    expect(replay.status).toBe(402);
    const refusal = (await replay.json()) as { error: string; detail: string; quote: unknown };
    expect(refusal.error).toBe("nonce already used");
    expect(refusal.detail).toMatch(/already used on chain/);
    await readQuote(refusal.quote);
    // A fresh authorization for the same Quote: the Quote is accepted once.
    const again = await fetch(url(), { headers: { "Stipendex-Payment": await pay(quote) } });
    const second = (await again.json()) as { error: string };
    expect(second.error).toBe("quote_already_used");
    expect(await payeeBalance()).toBe(before + HTTP_PRICES.stipendex);
  });

  it("wraps the Receipt header in base64url when asked (?receiptEncoding=base64url)", async () => {
    const wrapped = `${demo.urls.stipendex}/api/search?q=wrapped&receiptEncoding=base64url`;
    const first = await fetch(wrapped);
    const quote = await readQuote(((await first.json()) as { quote: unknown }).quote);
    const proof = await pay(quote);
    const paid = await fetch(wrapped, { headers: { "Stipendex-Payment": proof } });
    expect(paid.status).toBe(200);
    const header = paid.headers.get("Stipendex-Receipt") ?? "";
    expect(header).not.toContain(".");
    const jws = readReceiptValue(header);
    expect(base64url.encode(jws)).toBe(header);
    const receipt = await verifyReceipt(jws, {
      descriptor,
      quoteHash: quote.hash,
      proofHash: await sha256Base64url(proof),
    });
    expect(receipt.claims.status).toBe("settled");
  });

  it("answers preflights, and exposes the MCP session but no payment header to other origins", async () => {
    const preflight = await fetch(url(), {
      method: "OPTIONS",
      headers: {
        Origin: demo.urls.agent,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "stipendex-payment",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Stipendex-Payment/);
    const plain = await fetch(url(), { headers: { Origin: demo.urls.agent } });
    expect(plain.headers.get("access-control-allow-origin")).toBe(demo.urls.agent);
    expect(plain.headers.get("access-control-expose-headers")).toBe("Mcp-Session-Id");
  });

  it.each([
    ["garbage", "payment_parse"],
    ["underpaid", "amount_mismatch"],
    ["bad EIP-3009 signature", "FiatTokenV2_2: invalid signature"],
  ])("refuses a %s payment with the reason %s and settles nothing", async (kind, reason) => {
    const first = await fetch(url());
    const quote = await readQuote(((await first.json()) as { quote: unknown }).quote);
    const before = await payeeBalance();
    const header =
      kind === "garbage"
        ? "not-a-jws"
        : await pay(quote, { underpay: kind === "underpaid", wrongSigner: kind.startsWith("bad") });
    const response = await fetch(url(), { headers: { "Stipendex-Payment": header } });
    expect(response.status).toBe(402);
    const refusal = (await response.json()) as { error: string; detail: string; quote: unknown };
    expect(refusal.error).toBe(reason);
    expect(refusal.detail.length).toBeGreaterThan(10);
    await readQuote(refusal.quote);
    expect(await payeeBalance()).toBe(before);
  });
});

describe("x402 HTTP servers (official middleware)", () => {
  it.each([
    ["v1", "x402v1", "X-PAYMENT-RESPONSE"],
    ["v2", "x402v2", "PAYMENT-RESPONSE"],
  ] as const)(
    "%s: 402, pay, settle on chain, refuse the replay",
    async (_v, key, responseHeader) => {
      const url = `${demo.urls[key]}/api/search?q=eip`;
      const first = await fetch(url);
      expect(first.status).toBe(402);
      const offer = readHttp402(
        { headers: first.headers, body: await first.text() },
        { receiver: demo.urls[key], resource: { kind: "http", method: "GET", url }, registry },
      );
      const option = offer.options[0];
      if (!option) throw new Error("no option");
      expect(option.amount).toBe(HTTP_PRICES[key]);
      const payload = await signTransferWithAuthorization(payer, option, { now: now() });
      const header = paymentHeader(buildPaymentPayload(offer, option, payload));
      const before = await payeeBalance();
      const paid = await fetch(url, { headers: { [header.name]: header.value } });
      expect(paid.status).toBe(200);
      expect(((await paid.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
      expect(paid.headers.get(responseHeader)).toBeTruthy();
      const settled = readSettleResponseHeaders(paid.headers);
      expect(settled?.success).toBe(true);
      expect(await payeeBalance()).toBe(before + HTTP_PRICES[key]);

      const replay = await fetch(url, { headers: { [header.name]: header.value } });
      expect(replay.status).toBe(402);
      expect(await payeeBalance()).toBe(before + HTTP_PRICES[key]);
    },
  );
});

describe("paywalled pages (official x402 v2 and v1 middleware, Stipendex)", () => {
  const browser = {
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36",
  };

  /** Pays the x402 page at `url` as priced (its 402), loading it as a browser; the paid load is checked. */
  async function payPage(
    url: string,
    receiver: string,
    priced: { headers: Headers; body: string },
    price: "paywalledPage" | "paywalledPageV1",
  ): Promise<{ header: string }> {
    const offer = readHttp402(priced, {
      receiver,
      resource: { kind: "http", method: "GET", url },
      registry,
    });
    const option = offer.options[0];
    if (!option) throw new Error("no option");
    expect(option.amount).toBe(HTTP_PRICES[price]);
    const payload = await signTransferWithAuthorization(payer, option, { now: now() });
    const header = paymentHeader(buildPaymentPayload(offer, option, payload));
    const before = await payeeBalance();
    const paid = await fetch(url, { headers: { ...browser, [header.name]: header.value } });
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain('data-testid="paid-article"');
    expect(readSettleResponseHeaders(paid.headers)?.success).toBe(true);
    expect(await payeeBalance()).toBe(before + HTTP_PRICES[price]);
    return { header: header.name };
  }

  it("gives a browser its HTML paywall with 402 and PAYMENT-REQUIRED, then the article once paid", async () => {
    const url = demo.urls.paywalledPage;
    const first = await fetch(url, { headers: browser });
    expect(first.status).toBe(402);
    expect(first.headers.get("content-type")).toMatch(/text\/html/);
    expect(await first.text()).toMatch(/Payment Required/);
    await payPage(url, demo.urls.x402v2, { headers: first.headers, body: "" }, "paywalledPage");
  });

  it("x402 v1: a browser gets the HTML paywall without a price header; asked for JSON, the price; paid, the article", async () => {
    const url = demo.urls.paywalledPageV1;
    const first = await fetch(url, { headers: browser });
    expect(first.status).toBe(402);
    expect(first.headers.get("content-type")).toMatch(/text\/html/);
    expect(first.headers.get("payment-required")).toBeNull();
    const priced = await fetch(url, { headers: { ...browser, accept: "application/json" } });
    expect(priced.status).toBe(402);
    const priceRead = { headers: priced.headers, body: await priced.text() };
    const paid = await payPage(url, demo.urls.x402v1, priceRead, "paywalledPageV1");
    expect(paid.header).toBe("X-PAYMENT");
  });

  it("Stipendex: a browser gets 402 with a Quote bound to the page; paid, the article and a Receipt of it", async () => {
    const url = demo.urls.paywalledPageStipendex;
    const first = await fetch(url, { headers: browser });
    expect(first.status).toBe(402);
    const quote = await readQuote(((await first.json()) as { quote: unknown }).quote);
    expect(quote.claims.resource).toEqual({ http: { method: "GET", url } });
    expect(quote.claims.rails[0]?.amount).toBe(HTTP_PRICES.paywalledPageStipendex.toString());
    const before = await payeeBalance();
    const proof = await pay(quote);
    const paid = await fetch(url, { headers: { ...browser, "Stipendex-Payment": proof } });
    expect(paid.status).toBe(200);
    expect(paid.headers.get("content-type")).toMatch(/text\/html/);
    const body = await paid.text();
    expect(body).toContain('data-testid="paid-article"');
    const receipt = await verifyReceipt(paid.headers.get("Stipendex-Receipt"), {
      descriptor,
      quoteHash: quote.hash,
      proofHash: await sha256Base64url(proof),
      walletId: wallet.id,
    });
    expect(receipt.claims.resultHash).toBe(await sha256Base64url(body));
    expect(await payeeBalance()).toBe(before + HTTP_PRICES.paywalledPageStipendex);
  });
});

describe("MCP server shaped as seed 004 prints it", () => {
  const rpc = (body: object, headers: Record<string, string> = {}) =>
    fetch(demo.urls.mcp402, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const call = {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "verify_agent", arguments: { agent: "a" } },
  };

  it("answers a paid call with HTTP 402 and the seed's fields only, then runs it once paid in X-PAYMENT", async () => {
    const init = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18" },
    });
    expect(
      ((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion,
    ).toBe("2025-06-18");
    const first = await rpc(call);
    expect(first.status).toBe(402);
    const body = (await first.json()) as { accepts: Record<string, unknown>[] };
    expect(Object.keys(body)).toEqual(["accepts"]);
    expect(Object.keys(body.accepts[0] ?? {}).sort()).toEqual([
      "amount",
      "asset",
      "extra",
      "network",
      "payTo",
      "scheme",
    ]);

    const offer = readHttp402(
      { headers: first.headers, body: JSON.stringify(body) },
      {
        receiver: demo.urls.mcp402,
        resource: { kind: "http", method: "POST", url: demo.urls.mcp402 },
        registry,
      },
    );
    expect(offer.defaults).toEqual([{ field: "x402Version", value: "1" }]);
    const option = offer.options[0];
    if (!option) throw new Error("no option");
    const payload = await signTransferWithAuthorization(payer, option, { now: now() });
    const header = paymentHeader(buildPaymentPayload(offer, option, payload));
    const before = await payeeBalance();
    const paid = await rpc(call, { [header.name]: header.value });
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { result: { content: unknown[] } }).result.content).toHaveLength(
      1,
    );
    expect(readSettleResponseHeaders(paid.headers)?.success).toBe(true);
    expect(await payeeBalance()).toBe(before + HTTP_PRICES.seed402);
  });
});

async function mcpClient(endpoint: string, elicit?: Client["setRequestHandler"]) {
  const client = new Client(
    { name: "test-agent", version: "0.0.0" },
    { capabilities: elicit ? { elicitation: {} } : {} },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  return client;
}

/** The Last-Event-IDs an SDK client's GETs resumed streams from, through `fetch`. */
function resumptionsSeen() {
  const from: string[] = [];
  const fetching: typeof fetch = (input, init) => {
    const resumed = new Headers(init?.headers).get("last-event-id");
    if (init?.method === "GET" && resumed) from.push(resumed);
    return fetch(input, init);
  };
  return { from, fetch: fetching };
}

async function paymentRequiredError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  const mcp = error as McpError;
  expect(mcp.code).toBe(-32402);
  return mcp.data as { quote?: unknown; error?: string; detail?: string };
}

describe("MCP server", () => {
  it("prices deep_research with a profile L2 Quote, and refuses a Proof without its Confirmation", async () => {
    const client = await mcpClient(demo.urls.mcpJson);
    const args = { query: "l2", pages: 2 };
    const data = await paymentRequiredError(
      client.callTool({ name: "deep_research", arguments: args }),
    );
    const quote = await readQuote(data.quote);
    expect(quote.claims.profile).toBe("L2");
    const refused = await paymentRequiredError(
      client.callTool({
        name: "deep_research",
        arguments: args,
        _meta: { "stipendex/payment": toJsonForm("proof", await pay(quote)) },
      }),
    );
    expect(refused.detail).toMatch(/L2/);
    await client.close();
  });

  it.each([
    ["JSON", "mcpJson"],
    ["SSE", "mcpSse"],
    ["Polling SSE", "mcpPoll"],
  ] as const)(
    "%s answers: capability, price hints, -32402 with a Quote, paid retry with a Receipt",
    async (_k, key) => {
      const endpoint = demo.urls[key];
      const client = await mcpClient(endpoint);
      expect(client.getServerCapabilities()?.experimental?.["stipendex/payments"]).toEqual({
        version: "0.1",
      });
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === "web_search")?._meta?.["stipendex/pricing"]).toEqual({
        model: "per_call",
        estimate: "0.005 USD",
      });
      const free = await client.callTool({ name: "server_time", arguments: {} });
      expect(free.isError).toBeFalsy();

      const args = { query: "json canonical" };
      const data = await paymentRequiredError(
        client.callTool({ name: "web_search", arguments: args }),
      );
      const quote = await readQuote(data.quote);
      expect(quote.claims.resource).toEqual({
        mcp: {
          server: endpoint,
          tool: "web_search",
          argsHash: await sha256Base64url(canonicalize(args)),
        },
      });

      const before = await payeeBalance();
      const proof = await pay(quote);
      const result = await client.callTool({
        name: "web_search",
        arguments: args,
        _meta: { "stipendex/payment": toJsonForm("proof", proof) },
      });
      const receipt = await verifyReceipt(
        readJsonForm((result._meta as Record<string, unknown>)["stipendex/receipt"], "receipt"),
        {
          descriptor,
          quoteHash: quote.hash,
          proofHash: await sha256Base64url(proof),
          walletId: wallet.id,
        },
      );
      expect(receipt.claims.resultHash).toBe(await sha256Base64url(canonicalize(result.content)));
      expect(await payeeBalance()).toBe(before + PRICES.web_search);

      const refused = await paymentRequiredError(
        client.callTool({
          name: "web_search",
          arguments: args,
          _meta: { "stipendex/payment": toJsonForm("proof", proof) },
        }),
      );
      expect(refused.error).toBe("nonce already used");
      await readQuote(refused.quote);
      expect(await payeeBalance()).toBe(before + PRICES.web_search);
      await client.close();
    },
  );

  it("prices deep_research by its arguments", async () => {
    const client = await mcpClient(demo.urls.mcpJson);
    const data = await paymentRequiredError(
      client.callTool({ name: "deep_research", arguments: { query: "x", pages: 3 } }),
    );
    expect((await readQuote(data.quote)).claims.rails[0]?.amount).toBe("6000");
    await client.close();
  });

  it("x402 MCP tool: isError PaymentRequired, paid retry settles through the v2 facilitator", async () => {
    const client = await mcpClient(demo.urls.mcpJson);
    const unpaid = await client.callTool({ name: "x402_search", arguments: { query: "402" } });
    expect(unpaid.isError).toBe(true);
    const offer = readMcpPaymentRequired(unpaid, {
      receiver: demo.urls.stipendex,
      resource: { kind: "mcp", server: demo.urls.mcpJson, tool: "x402_search", argsHash: "" },
      registry,
    });
    const option = offer?.options[0];
    if (!offer || !option) throw new Error("no x402 offer");
    const payload = await signTransferWithAuthorization(payer, option, { now: now() });
    const meta = mcpPaymentMeta(buildPaymentPayload(offer, option, payload));
    const before = await payeeBalance();
    const paid = await client.callTool({
      name: "x402_search",
      arguments: { query: "402" },
      _meta: meta,
    });
    expect(paid.isError).toBeFalsy();
    expect(readMcpSettleResponse(paid)?.success).toBe(true);
    expect(await payeeBalance()).toBe(before + PRICES.x402_search);

    const replay = await client.callTool({
      name: "x402_search",
      arguments: { query: "402" },
      _meta: meta,
    });
    expect(replay.isError).toBe(true);
    expect(await payeeBalance()).toBe(before + PRICES.x402_search);
    await client.close();
  });

  it("the polling endpoint closes each call's stream after priming: the price and the result come on the resumed GET", async () => {
    const seen = resumptionsSeen();
    const client = new Client({ name: "test-agent", version: "0.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(demo.urls.mcpPoll), { fetch: seen.fetch }),
    );
    const args = { query: "polling" };
    const data = await paymentRequiredError(
      client.callTool({ name: "web_search", arguments: args }),
    );
    expect(seen.from).toHaveLength(1);
    const result = await client.callTool({
      name: "web_search",
      arguments: args,
      _meta: { "stipendex/payment": toJsonForm("proof", await pay(await readQuote(data.quote))) },
    });
    expect(result.isError).toBeFalsy();
    expect(seen.from).toHaveLength(2);
    await client.close();
  });

  it.each(["mcpSse", "mcpJson"] as const)(
    "confirmed_search on %s asks by elicitation (on the call's stream, or the standalone one), then accepts a Proof whose ch is that Confirmation",
    async (endpoint) => {
      let confirmationHash = "";
      let elicited: VerifiedQuote | undefined;
      const client = new Client(
        { name: "test-agent", version: "0.0.0" },
        { capabilities: { elicitation: {} } },
      );
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        elicited = await readQuote(request.params._meta?.["stipendex/quote"]);
        expect(request.params.message).toContain("0.01 USD");
        const confirmation = await confirm(elicited, "elicitation");
        confirmationHash = await sha256Base64url(confirmation);
        return { action: "accept", content: { confirmation } };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(demo.urls[endpoint])));
      const args = { query: "eip" };
      const data = await paymentRequiredError(
        client.callTool({ name: "confirmed_search", arguments: args }),
      );
      const quote = await readQuote(data.quote);
      expect(quote.hash).toBe(elicited?.hash);

      const before = await payeeBalance();
      const unconfirmed = await paymentRequiredError(
        client.callTool({
          name: "confirmed_search",
          arguments: args,
          _meta: { "stipendex/payment": toJsonForm("proof", await pay(quote)) },
        }),
      );
      expect(unconfirmed.error).toBe("confirmation_required");
      expect(await payeeBalance()).toBe(before);

      const newQuote = await readQuote(unconfirmed.quote);
      expect(newQuote.hash).not.toBe(quote.hash);
      const proof = await pay(quote, { ch: confirmationHash });
      const paid = await client.callTool({
        name: "confirmed_search",
        arguments: args,
        _meta: { "stipendex/payment": toJsonForm("proof", proof) },
      });
      const receiptForm = (paid._meta as Record<string, unknown>)["stipendex/receipt"];
      const receipt = decodeJwt(readJsonForm(receiptForm, "receipt"));
      expect(receipt.qh).toBe(quote.hash);
      expect(await payeeBalance()).toBe(before + PRICES.confirmed_search);
      await client.close();
    },
  );

  it("confirmed_search gives up on a confirmation not given within ?confirmWithinMs, and cancels its elicitation", async () => {
    const client = new Client(
      { name: "test-agent", version: "0.0.0" },
      { capabilities: { elicitation: {} } },
    );
    let elicitation: string | number | undefined;
    const cancelled = new Promise<unknown>((resolve) =>
      client.setNotificationHandler(CancelledNotificationSchema, (n) =>
        resolve(n.params.requestId),
      ),
    );
    // Never answered: the person would still be deciding.
    client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
      elicitation = extra.requestId;
      return new Promise(() => undefined);
    });
    const endpoint = `${demo.urls.mcpSse}?confirmWithinMs=1000`;
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
    const started = Date.now();
    await expect(
      client.callTool({ name: "confirmed_search", arguments: { query: "eip" } }),
    ).rejects.toMatchObject({ code: -32001 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await cancelled).toBe(elicitation);
    await client.close();
  });

  it("confirmed_search tells a client without form elicitation that it cannot ask it", async () => {
    const client = new Client({ name: "test-agent", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(demo.urls.mcpSse)));
    await expect(
      client.callTool({ name: "confirmed_search", arguments: { query: "eip" } }),
    ).rejects.toMatchObject({ code: -32600, message: expect.stringMatching(/did not declare/) });
    await client.close();
  });
});

describe("the paid endpoints npm start prints", () => {
  it("each answers its request with 402 and a price the wallet reads as the listed one", async () => {
    const endpoints = paidEndpoints(demo.urls);
    expect(endpoints).toHaveLength(4);
    for (const endpoint of endpoints) {
      const response = await fetch(endpoint.url, {
        method: endpoint.method,
        headers: endpoint.headers,
        ...(endpoint.body === undefined ? {} : { body: endpoint.body }),
      });
      expect(response.status, endpoint.name).toBe(402);
      const body = await response.text();
      const amount = endpoint.url.startsWith(demo.urls.stipendex)
        ? (await readQuote((JSON.parse(body) as { quote: unknown }).quote)).claims.rails[0]?.amount
        : readHttp402(
            { headers: response.headers, body },
            {
              receiver: endpoint.url,
              resource: { kind: "http", method: endpoint.method, url: endpoint.url },
              registry,
            },
          ).options[0]?.amount.toString();
      expect(amount, endpoint.name).toBe(endpoint.price.toString());
    }
  });

  it("prints each as one curl line a shell runs as the request", () => {
    const [search, , , mcp] = paidEndpoints(demo.urls);
    expect(search && curlLine(search)).toBe(`curl -i '${demo.urls.stipendex}/api/search?q=hello'`);
    expect(mcp && curlLine(mcp)).toBe(
      `curl -i -X POST '${demo.urls.mcp402}' -H 'content-type: application/json' ` +
        `-H 'accept: application/json, text/event-stream' -d '${mcp?.body}'`,
    );
    expect(curlLine({ ...(search as PaidEndpoint), url: "http://x/?q=it's" })).toBe(
      `curl -i 'http://x/?q=it'\\''s'`,
    );
  });
});
