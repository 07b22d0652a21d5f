import { describe, expect, it } from "vitest";
import { USDC_AS_USD, usdcOption } from "../../tests/unit-support/payments/offers";
import type { Offer } from "../protocol/offer";
import type { Network } from "../protocol/rails/networks";
import { type ApprovalViewInput, approvalView, KEPT_DESCRIPTION_CHARS } from "./approval-view";
import { KEPT_VALUE_CHARS } from "./tool-arguments";

const option = usdcOption({ amount: 1_250_000n });
const offer: Offer = {
  protocol: "stipendex",
  transport: "mcp",
  receiver: "https://api.example",
  resource: { kind: "mcp", server: "https://api.example/mcp", tool: "search", argsHash: "h" },
  description: "One search",
  options: [option],
  quote: { jws: "q", id: "q1", hash: "qh", issuedAt: 0, expiresAt: 2_000_000_000 },
};
const network: Network = {
  caip2: "eip155:84532",
  chainId: 84532,
  names: ["base-sepolia"],
  label: "Base Sepolia",
  testnet: true,
};
const input: ApprovalViewInput = {
  id: "a1",
  kind: "payment",
  createdAt: 5,
  caller: { origin: "https://agent.example" },
  offer,
  option,
  network,
  settings: USDC_AS_USD,
  decision: { action: "ask", rule: "origin-no-budget", reason: "", remaining: [] },
  server: { mcp: true, againstHint: "within" },
  historyWarnings: ["first-payment-to-receiver"],
};

describe("approvalView", () => {
  it("says what, for whom and how much, with the amount formatted by the token's decimals", () => {
    expect(approvalView(input)).toMatchObject({
      id: "a1",
      origin: "https://agent.example",
      receiver: { id: "https://api.example", verified: true },
      resource: { kind: "mcp", server: "https://api.example/mcp", tool: "search" },
      amount: { atomic: "1250000", formatted: "1.25", networkName: "Base Sepolia", testnet: true },
      expiresAt: 2_000_000_000_000,
    });
  });

  // Red-team review: hundreds of waiting requests, each with a 46 KB x402 description, in
  // storage.session made every change of the queue take seconds.
  it("keeps the first KEPT_DESCRIPTION_CHARS of a description and says how many it left out", () => {
    const long = "😀".repeat(KEPT_DESCRIPTION_CHARS + 7);
    const view = approvalView({ ...input, offer: { ...offer, description: long } });
    expect(view.description).toBe("😀".repeat(KEPT_DESCRIPTION_CHARS));
    expect(view.descriptionOmitted).toBe(7);
    expect(approvalView(input)).not.toHaveProperty("descriptionOmitted");
  });

  // Accessibility review: "Paid to" read the account in lower case, the pay-to address beside it checksummed.
  it("writes an x402 receiver's account with its address checksummed, as the pay-to address is", () => {
    const payTo = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    const unsigned: Offer = {
      ...offer,
      protocol: "x402-v2",
      receiver: `eip155:84532:${payTo.toLowerCase()}`,
      options: [{ ...option, payTo }],
      quote: undefined,
    };
    const view = approvalView({ ...input, offer: unsigned, option: { ...option, payTo } });
    expect(view.receiver.id).toBe(`eip155:84532:${payTo}`);
    expect(view.payTo).toBe(payTo);
  });

  it("says approving a desktop app's new payee lets its budget pay it from then on, and only then", () => {
    const decision = { ...input.decision, rule: "origin-new-payee" as const };
    expect(approvalView({ ...input, decision }).approvesPayee).toBe(true);
    expect(approvalView(input).approvesPayee).toBeUndefined();
  });

  it("passes what each limit leaves as micro-units for the window to word, and a total only a receiver stated", () => {
    const remaining = [
      { scope: "origin" as const, period: "week" as const, currency: "USD", micro: 4_995_000n },
    ];
    const view = approvalView({ ...input, decision: { ...input.decision, remaining } });
    expect(view.remaining).toEqual([
      { scope: "origin", period: "week", currency: "USD", micro: "4995000" },
    ]);
    expect(view.total).toBeUndefined();
    const stated = { amount: "1.25", currency: "USD" };
    expect(approvalView({ ...input, offer: { ...offer, displayTotal: stated } }).total).toEqual(
      stated,
    );
  });

  it("shows the MCP call's arguments, bounded, when the wallet was given the call", () => {
    const view = approvalView({
      ...input,
      call: { arguments: { q: "cats", long: "x".repeat(5_000) } },
    });
    expect(view.resource).toEqual({
      kind: "mcp",
      server: "https://api.example/mcp",
      tool: "search",
      arguments: {
        listed: [
          { name: { text: "q", omitted: 0 }, value: { text: '"cats"', omitted: 0 } },
          {
            name: { text: "long", omitted: 0 },
            value: {
              text: `"${"x".repeat(KEPT_VALUE_CHARS - 1)}`,
              omitted: 5_002 - KEPT_VALUE_CHARS,
            },
          },
        ],
        unlisted: 0,
      },
    });
    // A call sent without arguments says so; an elicitation outside a call knows none.
    const none = approvalView({ ...input, call: { arguments: undefined } }).resource;
    expect(none).toMatchObject({ arguments: { listed: [], unlisted: 0 } });
    expect(approvalView(input).resource).not.toHaveProperty("arguments");
    expect(approvalView(input).resource).toMatchObject({ argumentsUnknown: true });
    expect(none).not.toHaveProperty("argumentsUnknown");
  });

  it("says an unsigned price's tool call is the page's word, which a Quote's argsHash binds", () => {
    const { quote: _signed, ...unsigned } = offer;
    expect(approvalView({ ...input, offer: unsigned }).resource).toMatchObject({ unsigned: true });
    expect(approvalView(input).resource).not.toHaveProperty("unsigned");
  });

  it("shows beside an HTTP price's address the tools/call its page describes, and nothing else", () => {
    const http: Offer = {
      ...offer,
      transport: "http",
      resource: { kind: "http", method: "POST", url: "https://api.example/mcp" },
    };
    const view = approvalView({
      ...input,
      offer: http,
      call: { tool: "verify_agent", arguments: { agent: "a-1" } },
    });
    expect(view.resource).toEqual({
      kind: "http",
      method: "POST",
      url: "https://api.example/mcp",
      call: {
        tool: "verify_agent",
        arguments: {
          listed: [{ name: { text: "agent", omitted: 0 }, value: { text: '"a-1"', omitted: 0 } }],
          unlisted: 0,
        },
      },
    });
    expect(approvalView({ ...input, offer: http }).resource).toEqual(http.resource);
    // Arguments too long to pass on: none shown, rather than a call without any.
    const named = approvalView({
      ...input,
      offer: http,
      call: { tool: "t", arguments: undefined },
    });
    expect(named.resource).toEqual({ ...http.resource, call: { tool: "t" } });
  });

  it("says how long the receiver can collect the payment once signed: the option's, not the Quote's", () => {
    const collectedLonger = { ...option, maxTimeoutSeconds: 86_400 };
    expect(
      approvalView({
        ...input,
        offer: { ...offer, options: [collectedLonger] },
        option: collectedLonger,
      }).collectableForSeconds,
    ).toBe(86_400);
  });

  it("adds the server's flags to the history's, and shows what it declared and announced", () => {
    const flagged = approvalView({ ...input, server: { mcp: true, againstHint: "above" } });
    expect(flagged.warnings).toEqual([
      "first-payment-to-receiver",
      "above-price-hint",
      "server-did-not-declare-payments",
    ]);
    const declared = approvalView({
      ...input,
      server: {
        mcp: true,
        againstHint: "within",
        report: { server: "https://api.example/mcp", stipendexPayments: { version: "0.1" } },
        hint: { estimate: "1 USD", model: "per_call" } as never,
      },
    });
    expect(declared.warnings).toEqual(["first-payment-to-receiver"]);
    expect(declared.declaredPayments).toEqual({ version: "0.1" });
    expect(declared.priceHint).toEqual({ estimate: "1 USD", model: "per_call" });
  });

  it("flags an unsigned price asked because the signed one beside it did not verify", () => {
    const unsigned = { ...offer, protocol: "x402-v2" as const, quoteRefused: "Quote expired" };
    const { quote: _quote, ...withoutQuote } = unsigned;
    expect(
      approvalView({ ...input, offer: withoutQuote, server: { mcp: false } }).warnings,
    ).toContain("signed-price-refused");
    expect(approvalView(input).warnings).not.toContain("signed-price-refused");
  });

  it("names the top-level site of a frame, and says why a plain-http site cannot get a budget", () => {
    const framed = approvalView({
      ...input,
      caller: { origin: "http://ads.example", topOrigin: "https://news.example" },
    });
    expect(framed.topOrigin).toBe("https://news.example");
    expect(framed.alwaysAllowBlocked).toMatch(/not a secure \(https\) site/);
  });
});
