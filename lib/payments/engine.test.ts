import { type Address, type Hex, verifyTypedData } from "viem";
import { describe, expect, it } from "vitest";
import {
  AGENT,
  AUTO_BUDGET,
  CALLER,
  type Harness,
  MCP_SERVER,
  makeHarness,
  PASSWORD,
  RECEIVER,
  SEARCH_CALL,
  stipendexHttpChallenge,
  stipendexMcpChallenge,
  TEST_AUTO_BUDGET,
  until,
  X402_URL,
  x402HttpChallenge,
} from "../../tests/unit-support/payments/test-support";
import { makeReceiver, RAIL, T } from "../../tests/unit-support/protocol/envelope/test-fixtures";
import {
  BASE_SEPOLIA_USDC,
  PAY_TO,
  v2PaymentRequired,
  v2Requirement,
} from "../../tests/unit-support/protocol/x402/test-fixtures";
import { putSums } from "../../tests/unit-support/wallet/put-sums";
import { fileServerReport } from "../background/pricing-book";
import type { OriginBudgetView, PaymentAnswer, PaymentChallenge } from "../messages";
import { verifyConfirmation } from "../protocol/envelope/confirmation";
import { objectHash } from "../protocol/envelope/object-hash";
import { verifyProof } from "../protocol/envelope/proof";
import { verifyQuote } from "../protocol/envelope/quote";
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from "../protocol/rails/eip3009";
import { decodeBase64Json, encodeBase64Json } from "../protocol/x402/wire";
import { STORAGE_KEYS } from "../storage-keys";
import { readAllSums } from "../wallet/budget-sums";
import { sumKeysToCharge, sumSlotsToCharge } from "../wallet/limits";
import { type Caller, chooseOption, requestKeyOf, UNPAID_ENDS } from "./engine-parts";
import { trackSettlements } from "./settlement-tracker";

const autoPolicy = { policy: { origins: { [AGENT]: AUTO_BUDGET } } };
/** x402 fixtures pay on Base Sepolia: test money, so the site's budget is in test USD. */
const autoTestPolicy = { policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } };

function at(h: Harness): Date {
  return new Date(h.clock.ms);
}

async function onlyPayment(h: Harness) {
  const all = await h.db.payments.toArray();
  expect(all).toHaveLength(1);
  const [payment] = all;
  if (!payment) return expect.unreachable("no payment recorded");
  return payment;
}

/** The one payment was withdrawn by its site: declined, nothing waits, nothing confirmed, signed or charged. */
async function assertWithdrawnUnsigned(h: Harness): Promise<void> {
  expect(await pendingIds(h)).toEqual([]);
  const payment = await onlyPayment(h);
  expect(payment).toMatchObject({
    state: "declined",
    reason: "The site withdrew its request before you decided",
  });
  // Nobody decided: no Confirmation says the person declined it.
  expect(payment.confirmation).toBeUndefined();
  expect(payment.proof).toBeUndefined();
  expect(payment.charge).toBeUndefined();
  expect([...(await readAllSums(h.db)).values()].every((sum) => sum === 0n)).toBe(true);
}

async function pendingIds(h: Harness): Promise<string[]> {
  return (await h.approvals.pending()).map((p) => p.id);
}

/** Checks an EIP-3009 authorization's signature the way the token contract would. */
function signedBy(
  payload: { signature: Hex; authorization: Record<string, string> },
  domain: { name: string; version: string; chainId: number; verifyingContract: Address },
  address: Address,
) {
  const a = payload.authorization;
  return verifyTypedData({
    address,
    domain,
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message: {
      from: a.from as Address,
      to: a.to as Address,
      value: BigInt(a.value ?? ""),
      validAfter: BigInt(a.validAfter ?? ""),
      validBefore: BigInt(a.validBefore ?? ""),
      nonce: a.nonce as Hex,
    },
    signature: payload.signature,
  });
}

describe("PaymentEngine.pay, auto-approved", () => {
  it("answers a Stipendex 402 with a Proof that verifies against the Quote, and charges the budget", async () => {
    const h = await makeHarness(autoPolicy);
    const { challenge, jws } = await stipendexHttpChallenge(h.receiver);
    const answer = await h.engine.pay({ requestId: "r1", challenge }, CALLER);

    expect(answer.header?.name).toBe("Stipendex-Payment");
    const quote = await verifyQuote(jws, { descriptor: h.receiver.descriptor, now: at(h) });
    const proof = await verifyProof(answer.header?.value, {
      quote,
      receiverId: RECEIVER,
      now: at(h),
    });
    const payment = await onlyPayment(h);
    expect(payment.id).toBe(answer.paymentId);
    expect(payment.state).toBe("signed");
    expect(payment.proof).toBe(answer.header?.value);
    expect(proof.claims.rail).toEqual(RAIL);
    expect(proof.claims.qh).toBe(quote.hash);
    expect(proof.claims.ch).toBe(await objectHash(payment.confirmation ?? ""));
    expect(proof.claims.payment.authorization).toMatchObject({
      from: h.unlocked.address,
      to: RAIL.payTo,
      value: RAIL.amount,
    });
    expect(proof.walletId).toBe(h.unlocked.signingKey.walletId);

    const confirmation = await verifyConfirmation(payment.confirmation, {
      receiverId: RECEIVER,
      quoteHash: quote.hash,
      now: at(h),
    });
    expect(confirmation.claims).toMatchObject({
      origin: AGENT,
      decision: "approve",
      mode: "policy",
      rule: "origin-auto-approve",
      humanPresent: false,
    });
    expect(h.windows.opened).toEqual([]);

    const sums = await readAllSums(h.db);
    for (const key of sumKeysToCharge(AGENT, "USD", h.clock.ms)) {
      expect(sums.get(key), key).toBe(5000n);
    }
  });

  it.each([
    [1, "X-PAYMENT"],
    [2, "PAYMENT-SIGNATURE"],
  ] as const)(
    "answers x402 v%i with %s carrying a payload the token would accept",
    async (version, header) => {
      const h = await makeHarness(autoTestPolicy);
      const answer = await h.engine.pay(
        { requestId: `x${version}`, challenge: x402HttpChallenge(version) },
        CALLER,
      );
      expect(answer.header?.name).toBe(header);
      const decoded = decodeBase64Json(answer.header?.value ?? "", "answer") as {
        payload: { signature: Hex; authorization: Record<string, string> };
      };
      if (version === 1) {
        expect(decoded).toMatchObject({ x402Version: 1, scheme: "exact", network: "base-sepolia" });
        expect(decoded).not.toHaveProperty("accepted");
      } else {
        expect(decoded).toMatchObject({
          x402Version: 2,
          accepted: v2Requirement,
          resource: v2PaymentRequired.resource,
          extensions: v2PaymentRequired.extensions,
        });
      }
      expect(decoded.payload.authorization).toMatchObject({
        from: h.unlocked.address,
        to: PAY_TO,
        value: "10000",
      });
      const domain = {
        name: "USDC",
        version: "2",
        chainId: 84532,
        verifyingContract: BASE_SEPOLIA_USDC as Address,
      };
      expect(await signedBy(decoded.payload, domain, h.unlocked.address)).toBe(true);
      const payment = await onlyPayment(h);
      expect(payment.state).toBe("signed");
      expect(payment.offer.protocol).toBe(`x402-v${version}`);
    },
  );

  it("answers a Stipendex MCP -32402 with a _meta Proof", async () => {
    const h = await makeHarness(autoPolicy);
    const { challenge, jws } = await stipendexMcpChallenge(h.receiver, { q: "cats", n: 3 });
    const answer = await h.engine.pay({ requestId: "m1", challenge }, CALLER);

    expect(answer.header).toBeUndefined();
    expect(answer.meta?.key).toBe("stipendex/payment");
    const value = answer.meta?.value as { stipendex: string; jws: string };
    expect(value.stipendex).toBe("proof/0.1");
    const quote = await verifyQuote(jws, { descriptor: h.receiver.descriptor, now: at(h) });
    const proof = await verifyProof(value.jws, { quote, receiverId: RECEIVER, now: at(h) });
    expect(proof.claims.qh).toBe(quote.hash);
  });

  /** A tools/call of an x402 MCP server on 127.0.0.1:4021 answered with `result`. */
  const x402ToolCall = (result: unknown): PaymentChallenge => ({
    transport: "mcp",
    server: "http://127.0.0.1:4021/mcp",
    tool: "weather",
    arguments: { city: "Oslo" },
    result,
  });

  it("answers an x402 MCP isError result with the x402/payment _meta entry", async () => {
    const h = await makeHarness(autoTestPolicy);
    const challenge = x402ToolCall({
      isError: true,
      structuredContent: v2PaymentRequired,
      content: [],
    });
    const answer = await h.engine.pay({ requestId: "xm", challenge }, CALLER);
    expect(answer.meta?.key).toBe("x402/payment");
    expect(answer.meta?.value).toMatchObject({ x402Version: 2, accepted: v2Requirement });
    // Unsigned: the receiver is the account paid; the server's origin is only what the page claims.
    const payment = await onlyPayment(h);
    expect(payment.receiver).toBe(`eip155:84532:${PAY_TO.toLowerCase()}`);
    expect(payment.offer.claimedBy).toBe("http://127.0.0.1:4021");
  });

  it("says why the price's other options went unread when the one it could read is refused", async () => {
    const h = await makeHarness({ policy: { networks: ["eip155:84532"] } });
    const mainnet = {
      ...v2Requirement,
      network: "eip155:1",
      asset: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      extra: { name: "USD Coin", version: "2" },
    };
    const paymentRequired = {
      ...v2PaymentRequired,
      accepts: [mainnet, { ...v2Requirement, maxTimeoutSeconds: 5 }],
    };
    const challenge = {
      ...x402HttpChallenge(2),
      paymentRequiredHeader: encodeBase64Json(paymentRequired),
    };
    await expect(h.engine.pay({ requestId: "unread", challenge }, CALLER)).rejects.toMatchObject({
      code: "policy-refused",
    });
    const { reason } = await onlyPayment(h);
    expect(reason).toMatch(/eip155:1 is not among the allowed networks/);
    expect(reason).toMatch(/other options could not be read: accepts\[1\]: invalid-timeout/);
  });

  it("asks the person, budget or not, about an x402 MCP price found only in the tool answer's text", async () => {
    const h = await makeHarness(autoTestPolicy);
    // A tool that passes on another site's answer (a fetched page, a relayed 402) as its text.
    const challenge = x402ToolCall({
      isError: true,
      content: [{ type: "text", text: JSON.stringify(v2PaymentRequired) }],
    });
    const paid = h.engine.pay({ requestId: "relayed", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [pending] = await h.approvals.pending();
    expect(pending?.warnings).toContain("price-in-tool-text");
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "decline" });
    await expect(paid).rejects.toMatchObject({ code: "user-declined" });
    expect((await onlyPayment(h)).state).toBe("declined");
  });
});

describe("PaymentEngine.pay, the automatic hot path", () => {
  it("pays under a budget with one IndexedDB transaction once the worker is warm", async () => {
    // Dexie binds the connection's transaction() when it opens: spy before the harness opens it.
    const opened: string[] = [];
    let counting = false;
    const open = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args) {
      if (counting) opened.push(String(args[1] ?? "readonly"));
      return open.apply(this, args);
    } as typeof open;
    try {
      const h = await makeHarness(autoPolicy);
      const first = await stipendexHttpChallenge(h.receiver);
      await h.engine.pay({ requestId: "warm-up", challenge: first.challenge }, CALLER);
      const { challenge } = await stipendexHttpChallenge(h.receiver);
      counting = true;
      const answer = await h.engine.pay({ requestId: "hot", challenge }, CALLER);
      counting = false;
      expect((await h.db.payments.get(answer.paymentId))?.state).toBe("signed");
    } finally {
      IDBDatabase.prototype.transaction = open;
    }
    expect(opened).toEqual(["readwrite"]);
  });

  it("decides from sums that include a charge made on another path (an elicitation's)", async () => {
    const h = await makeHarness({
      policy: { origins: { [AGENT]: { ...AUTO_BUDGET, amount: "12000" } } },
    });
    const a = await stipendexHttpChallenge(h.receiver);
    await h.engine.pay({ requestId: "a", challenge: a.challenge }, CALLER);
    const { jws } = await stipendexMcpChallenge(h.receiver);
    const elicited = await h.engine.elicit(
      {
        server: MCP_SERVER,
        call: SEARCH_CALL,
        params: { _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws } } },
      },
      CALLER,
    );
    expect(elicited.action).toBe("accept");
    // 5,000 paid + 5,000 held by the elicitation, of 12,000: the next 5,000 needs the person.
    const c = await stipendexHttpChallenge(h.receiver);
    const third = h.engine.pay({ requestId: "c", challenge: c.challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [pending] = await h.approvals.pending();
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "decline" });
    await expect(third).rejects.toMatchObject({ name: "PaymentError", code: "user-declined" });
  });

  it("keeps in the history the tool a seed-004 POST is said to carry, when a budget pays it", async () => {
    const h = await makeHarness(autoPolicy);
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    if (challenge.transport !== "http") throw new Error("expected an HTTP price");
    const call = { tool: "verify_agent", arguments: { agent: "a-1" } };
    await h.engine.pay({ requestId: "s4", challenge: { ...challenge, call } }, CALLER);
    const payment = await onlyPayment(h);
    expect(payment).toMatchObject({ state: "signed", describedTool: "verify_agent" });
    expect(
      JSON.stringify(payment, (_, value) => (typeof value === "bigint" ? `${value}` : value)),
    ).not.toContain("a-1");
  });
});

describe("PaymentEngine.pay, asking the person", () => {
  it("shows the MCP tool call's arguments, by payment and by elicitation within the call", async () => {
    const h = await makeHarness();
    const args = { q: "cats", n: 3 };
    const { challenge, jws } = await stipendexMcpChallenge(h.receiver, args);
    const paid = h.engine.pay({ requestId: "m", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [asked] = await h.approvals.pending();
    expect(asked?.resource).toMatchObject({
      tool: "search",
      arguments: {
        listed: [{ name: { text: "q" }, value: { text: '"cats"' } }, { name: { text: "n" } }],
      },
    });
    await h.approvals.decide({ approvalId: asked?.id ?? "", decision: "decline" });
    await expect(paid).rejects.toMatchObject({ code: "user-declined" });

    const elicited = h.engine.elicit(
      {
        server: MCP_SERVER,
        call: { tool: "search", arguments: args },
        params: { _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws } } },
      },
      CALLER,
    );
    await until(async () => (await pendingIds(h)).length === 1);
    const [confirming] = await h.approvals.pending();
    expect(confirming?.resource).toMatchObject({
      arguments: { listed: [{ name: { text: "q" } }, {}] },
    });
    await h.approvals.decide({ approvalId: confirming?.id ?? "", decision: "decline" });
    expect((await elicited).action).toBe("decline");
  });

  it("shows beside an HTTP price the tool call its page says the POST carries (seed 004)", async () => {
    const h = await makeHarness();
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    if (challenge.transport !== "http") throw new Error("expected an HTTP price");
    const call = { tool: "verify_agent", arguments: { agent: "a-1" } };
    const paid = h.engine.pay({ requestId: "s4", challenge: { ...challenge, call } }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [asked] = await h.approvals.pending();
    expect(asked?.resource).toMatchObject({
      kind: "http",
      call: { tool: "verify_agent", arguments: { listed: [{ name: { text: "agent" } }] } },
    });
    await h.approvals.decide({ approvalId: asked?.id ?? "", decision: "decline" });
    await expect(paid).rejects.toMatchObject({ code: "user-declined" });
    // The history keeps the tool, as the page's word; never its arguments.
    expect(await onlyPayment(h)).toMatchObject({
      state: "declined",
      describedTool: "verify_agent",
    });
  });

  it("opens one window for two concurrent asks and signs each once approved", async () => {
    const h = await makeHarness();
    const a = await stipendexHttpChallenge(h.receiver);
    const b = await stipendexHttpChallenge(h.receiver);
    const paidA = h.engine.pay({ requestId: "a", challenge: a.challenge }, CALLER);
    const paidB = h.engine.pay({ requestId: "b", challenge: b.challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 2);
    expect(h.windows.opened).toHaveLength(1);
    expect(await h.db.payments.filter((p) => p.state === "signed").count()).toBe(0);

    for (const id of await pendingIds(h)) {
      await h.approvals.decide({ approvalId: id, decision: "approve" });
    }
    const answers = await Promise.all([paidA, paidB]);
    expect(new Set(answers.map((x) => x.paymentId)).size).toBe(2);
    for (const answer of answers) {
      const payment = await h.db.payments.get(answer.paymentId);
      expect(payment?.state).toBe("signed");
      const confirmation = await verifyConfirmation(payment?.confirmation, {
        receiverId: RECEIVER,
        now: at(h),
      });
      expect(confirmation.claims).toMatchObject({ mode: "popup", humanPresent: true });
    }
    expect(h.windows.opened).toHaveLength(1);
    expect(await h.session.get(STORAGE_KEYS.decisions)).toEqual({});
  });

  it("records a decline with a signed declining Confirmation and charges nothing", async () => {
    const h = await makeHarness();
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "d", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "decline" });

    await expect(paid).rejects.toMatchObject({ name: "PaymentError", code: "user-declined" });
    const payment = await onlyPayment(h);
    expect(payment.state).toBe("declined");
    expect(payment.proof).toBeUndefined();
    const confirmation = await verifyConfirmation(payment.confirmation, {
      receiverId: RECEIVER,
      now: at(h),
    });
    expect(confirmation.claims.decision).toBe("decline");
    expect(await h.db.budgetSums.count()).toBe(0);
    // Asked again, the same request stays declined.
    await expect(h.engine.pay({ requestId: "d", challenge }, CALLER)).rejects.toMatchObject({
      name: "PaymentError",
      code: "user-declined",
    });
  });

  it("declines a request its page withdraws while the person decides: the window drops it, nothing is signed", async () => {
    const h = await makeHarness();
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "w", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    // Another tab's request with the same id is not this page's to withdraw.
    await h.engine.withdraw("w", { ...CALLER, tabId: 99 });
    expect(await pendingIds(h)).toHaveLength(1);
    await h.engine.withdraw("w", CALLER);

    await expect(paid).rejects.toMatchObject({
      code: "user-declined",
      message: "The site withdrew its request before you decided",
    });
    await assertWithdrawnUnsigned(h);
  });

  it("never asks about, nor signs, a request withdrawn before the wallet got to it", async () => {
    const h = await makeHarness(autoPolicy);
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    await h.engine.withdraw("early", CALLER);
    await expect(h.engine.pay({ requestId: "early", challenge }, CALLER)).rejects.toMatchObject({
      code: "user-declined",
    });
    expect(await pendingIds(h)).toEqual([]);
    expect(await onlyPayment(h)).toMatchObject({
      state: "declined",
      reason: "The site withdrew its request before you decided",
    });
    expect(await h.db.budgetSums.count()).toBe(0);
  });

  it("keeps a request's withdrawal while it is being paid, however many other pages withdraw", async () => {
    const h = await makeHarness(autoPolicy);
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "aborted", challenge }, CALLER);
    void h.engine.withdraw("aborted", CALLER);
    // Another site's page floods withdrawals of its own while this one is read and checked.
    const flood = { ...CALLER, origin: "https://flood.example", tabId: 7 };
    const flooding = Array.from({ length: 300 }, (_, i) => h.engine.withdraw(`f${i}`, flood));
    await expect(paid).rejects.toMatchObject({ code: "user-declined" });
    await Promise.all(flooding);
    const payment = await onlyPayment(h);
    expect(payment.state).toBe("declined");
    expect(payment.proof).toBeUndefined();
    expect([...(await readAllSums(h.db)).values()].every((sum) => sum === 0n)).toBe(true);
  });

  it("says a desktop app (through the proxy) withdrew its request, not a site", async () => {
    const h = await makeHarness();
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const desktop = { origin: "proxy:http://127.0.0.1:4020", tabId: undefined, frameId: undefined };
    const paid = h.engine.pay({ requestId: "app", challenge }, desktop);
    await until(async () => (await pendingIds(h)).length === 1);
    await h.engine.withdraw("app", desktop);
    await expect(paid).rejects.toMatchObject({
      code: "user-declined",
      message: "The desktop app withdrew its request before you decided",
    });
    expect(await pendingIds(h)).toEqual([]);
    const payment = await onlyPayment(h);
    expect(payment.state).toBe("declined");
    expect(payment.proof).toBeUndefined();
  });

  it("changes nothing once the person approved: the payment is signed and stays so", async () => {
    const h = await makeHarness();
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "late", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });
    const answer = await paid;
    await h.engine.withdraw("late", CALLER);
    expect(await onlyPayment(h)).toMatchObject({ id: answer.paymentId, state: "signed" });
  });

  it("writes the origin budget on 'always allow' and pays the next one without asking", async () => {
    const h = await makeHarness();
    const first = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "p1", challenge: first.challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [id] = await pendingIds(h);
    await h.approvals.decide({
      approvalId: id ?? "",
      decision: "approve",
      alwaysAllowPerDay: "1000000",
    });
    await paid;
    expect((await h.policy.view()).origins[AGENT]).toEqual({
      currency: "USD",
      amount: "1000000",
      period: "day",
      autoApproveUpTo: "1000000",
      perCallMax: "1000000",
    });

    const second = await stipendexHttpChallenge(h.receiver);
    const answer = await h.engine.pay({ requestId: "p2", challenge: second.challenge }, CALLER);
    const payment = await h.db.payments.get(answer.paymentId);
    expect(payment?.state).toBe("signed");
    expect(h.windows.opened).toHaveLength(1);
    const confirmation = await verifyConfirmation(payment?.confirmation, {
      receiverId: RECEIVER,
      now: at(h),
    });
    expect(confirmation.claims.mode).toBe("policy");
  });

  it("asks while locked, never signs while locked, and pays once unlocked and asked again", async () => {
    const h = await makeHarness({ ...autoPolicy, locked: true });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "l", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    expect(h.windows.opened).toHaveLength(1);
    expect((await onlyPayment(h)).state).toBe("quoted");

    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });
    await expect(paid).rejects.toMatchObject({ name: "PaymentError", code: "wallet-locked" });
    const stillLocked = await onlyPayment(h);
    expect(stillLocked.state).toBe("quoted");
    expect(stillLocked.proof).toBeUndefined();
    expect(await h.db.budgetSums.count()).toBe(0);

    await h.wallet.unlock(PASSWORD);
    const answer = await h.engine.pay({ requestId: "l", challenge }, CALLER);
    expect(answer.paymentId).toBe(stillLocked.id);
    expect((await onlyPayment(h)).state).toBe("signed");
  });

  it("pays at unlock, as the policy, what its budget covers and waited only for the wallet", async () => {
    const h = await makeHarness({ ...autoPolicy, locked: true });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "l", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    expect((await h.approvals.pending())[0]?.paidOnUnlock).toBe(true);

    await h.wallet.unlock(PASSWORD);
    await h.approvals.unlocked();
    const payment = await h.db.payments.get((await paid).paymentId);
    expect(payment).toMatchObject({ state: "signed", approvedBy: "policy" });
    const confirmation = await verifyConfirmation(payment?.confirmation, {
      receiverId: RECEIVER,
      now: at(h),
    });
    expect(confirmation.claims.mode).toBe("policy");
    expect(await pendingIds(h)).toEqual([]);
    expect(h.windows.closed).toEqual(h.windows.opened);
  });

  it("pays under its budget a request the wallet was unlocked for while it was being asked", async () => {
    const h = await makeHarness(autoPolicy);
    // Locked when the policy looks, unlocked by the time the request waits for the person.
    let asked = false;
    const current = h.wallet.current.bind(h.wallet);
    h.wallet.current = async () => (asked ? current() : undefined);
    const ask = h.approvals.ask.bind(h.approvals);
    h.approvals.ask = (approval) => {
      asked = true;
      return ask(approval);
    };
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const answer = await h.engine.pay({ requestId: "l", challenge }, CALLER);
    expect(await h.db.payments.get(answer.paymentId)).toMatchObject({
      state: "signed",
      approvedBy: "policy",
    });
    // It was asked (the window opened for it), and left the window paid.
    expect(h.windows.opened).toHaveLength(1);
    expect(await pendingIds(h)).toEqual([]);
  });

  it("keeps asking at unlock when the budget no longer covers it, and pays once approved", async () => {
    const h = await makeHarness({ ...autoPolicy, locked: true });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "l", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    await h.policy.save({ ...(await h.policy.view()), origins: {} });

    await h.wallet.unlock(PASSWORD);
    await h.approvals.unlocked();
    const [id] = await pendingIds(h);
    expect(id).toBeDefined();
    expect(h.windows.closed).toEqual([]);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });
    const payment = await h.db.payments.get((await paid).paymentId);
    expect(payment).toMatchObject({ state: "signed", approvedBy: "person" });
  });

  it("leaves a locked wallet's request the person declined declined, though its budget covers it", async () => {
    const h = await makeHarness({ ...autoPolicy, locked: true });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "l", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "decline" });
    await expect(paid).rejects.toMatchObject({ name: "PaymentError", code: "user-declined" });
    await h.wallet.unlock(PASSWORD);
    await h.approvals.unlocked();
    const payment = await onlyPayment(h);
    expect(payment.state).toBe("declined");
    expect(payment.proof).toBeUndefined();
  });

  it("marks a Quote that expired while the person decided as expired, unsigned", async () => {
    const h = await makeHarness();
    const { challenge } = await stipendexHttpChallenge(h.receiver, { exp: T + 60 });
    const paid = h.engine.pay({ requestId: "e", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    h.clock.ms += 61_000;
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });

    await expect(paid).rejects.toMatchObject({
      name: "PaymentError",
      code: "policy-refused",
      rule: "expired",
    });
    const payment = await onlyPayment(h);
    expect(payment.state).toBe("expired");
    expect(payment.proof).toBeUndefined();
    expect(await h.db.budgetSums.count()).toBe(0);
  });
});

describe("PaymentEngine.pay, failures that are not refusals", () => {
  it("passes a signing failure on as what it is, not as a budget refusal, and charges nothing", async () => {
    const h = await makeHarness();
    const wallet = await h.wallet.current();
    if (!wallet) return expect.unreachable("the harness wallet is locked");
    wallet.evmAccount.signTypedData = async () => {
      throw new Error("The signer is unavailable");
    };
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "s", challenge }, CALLER);
    paid.catch(() => undefined);
    await until(async () => (await pendingIds(h)).length === 1);
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });
    await expect(paid).rejects.toThrow("The signer is unavailable");
    await expect(paid).rejects.not.toMatchObject({ code: "policy-refused" });
    const payment = await onlyPayment(h);
    expect(payment.proof).toBeUndefined();
    expect(payment.charge).toBeUndefined();
    expect(await h.db.budgetSums.count()).toBe(0);
  });
});

describe("PaymentEngine.pay, refusals", () => {
  it("refuses over the daily cap without asking or signing", async () => {
    const h = await makeHarness({ policy: { globalCaps: { USD: { day: "4999" } } } });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "c", challenge }, CALLER);
    await expect(paid).rejects.toMatchObject({ name: "PaymentError", code: "policy-refused" });
    await expect(paid).rejects.toMatchObject({ rule: "global-day-cap" });
    const payment = await onlyPayment(h);
    expect(payment.state).toBe("refused");
    expect(payment.reason).toContain("the daily cap for all sites");
    expect(payment.proof).toBeUndefined();
    expect(h.windows.opened).toEqual([]);
  });

  it("refuses a replayed Quote (same jti, new request id) without a second signature", async () => {
    const h = await makeHarness(autoPolicy);
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const first = await h.engine.pay({ requestId: "one", challenge }, CALLER);
    await expect(h.engine.pay({ requestId: "two", challenge }, CALLER)).rejects.toThrow(
      /Replayed quote/,
    );
    const all = await h.db.payments.toArray();
    expect(all).toHaveLength(2);
    const paid = all.find((p) => p.state === "signed");
    const refused = all.find((p) => p.state === "refused");
    expect(paid?.proof).toBe(first.header?.value);
    expect(refused).toMatchObject({ state: "refused", origin: AGENT });
    expect(refused?.quoteId).toBeUndefined();
    expect(refused?.reason).toMatch(/^Replayed quote/);
    expect(refused?.proof).toBeUndefined();
    const sums = await readAllSums(h.db);
    expect(sums.get(sumKeysToCharge(AGENT, "USD", h.clock.ms)[0] ?? "")).toBe(5000n);
  });

  it("refuses a Quote signed by a key the descriptor does not list, after one refresh", async () => {
    const h = await makeHarness(autoPolicy);
    const impostor = await makeReceiver(RECEIVER, "r2");
    const { challenge } = await stipendexHttpChallenge(impostor);
    await expect(h.engine.pay({ requestId: "k", challenge }, CALLER)).rejects.toMatchObject({
      name: "ProtocolError",
      code: "key-not-in-descriptor",
    });
    expect(h.fetched).toHaveLength(2);
    expect(await h.db.payments.count()).toBe(0);
  });

  it("records at most UNPAID_ENDS.limit refused requests of a site a minute; the rest are turned away unrecorded", async () => {
    const h = await makeHarness({ policy: { globalCaps: { USD: { day: "4999" } } } });
    const refused = async (requestId: string, caller: Caller = CALLER) => {
      const { challenge } = await stipendexHttpChallenge(h.receiver);
      return h.engine.pay({ requestId, challenge }, caller).catch((error: unknown) => error);
    };
    for (let i = 0; i < UNPAID_ENDS.limit; i++) {
      expect(await refused(`r${i}`)).toMatchObject({ code: "policy-refused" });
    }
    expect(await refused("over")).toMatchObject({
      name: "PaymentError",
      code: "too-many-unpaid",
      message: expect.stringContaining(`${UNPAID_ENDS.limit} payment requests from ${AGENT}`),
    });
    expect(await h.db.payments.count()).toBe(UNPAID_ENDS.limit);
    // Another site is not held back by this one.
    const other = { ...CALLER, origin: "https://other.example" };
    expect(await refused("other", other)).toMatchObject({ code: "policy-refused" });
    // One more a while later, as the minute goes by.
    h.clock.ms += UNPAID_ENDS.windowMs / UNPAID_ENDS.limit;
    expect(await refused("later")).toMatchObject({ code: "policy-refused" });
    expect(await refused("later-again")).toMatchObject({ code: "too-many-unpaid" });
    expect(await h.db.payments.count()).toBe(UNPAID_ENDS.limit + 2);
  });

  it("needs a wallet first", async () => {
    const h = await makeHarness(autoPolicy);
    await h.local.remove(STORAGE_KEYS.vault);
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    await expect(h.engine.pay({ requestId: "n", challenge }, CALLER)).rejects.toMatchObject({
      name: "PaymentError",
      code: "no-wallet",
    });
  });
});

describe("PaymentEngine.pay, resuming", () => {
  it("gives a restarted worker the same answer for the same request, signing once", async () => {
    const h = await makeHarness(autoPolicy);
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const first = await h.engine.pay({ requestId: "same", challenge }, CALLER);
    const before = h.engine;
    h.restart();
    expect(h.engine).not.toBe(before);
    const again = await h.engine.pay({ requestId: "same", challenge }, CALLER);
    expect(again).toEqual(first);
    expect(await h.db.payments.count()).toBe(1);
    const sums = await readAllSums(h.db);
    expect(sums.get(sumKeysToCharge(AGENT, "USD", h.clock.ms)[0] ?? "")).toBe(5000n);
  });

  it("remembers every one of many concurrent requests across a restart", async () => {
    const h = await makeHarness(autoPolicy);
    const challenges = await Promise.all(
      Array.from({ length: 8 }, () => stipendexHttpChallenge(h.receiver)),
    );
    const first = await Promise.all(
      challenges.map(({ challenge }, i) => h.engine.pay({ requestId: `r${i}`, challenge }, CALLER)),
    );
    h.restart();
    const again = await Promise.all(
      challenges.map(({ challenge }, i) => h.engine.pay({ requestId: `r${i}`, challenge }, CALLER)),
    );
    expect(again).toEqual(first);
    expect(await h.db.payments.count()).toBe(8);
  });

  it("resumes an approval a stopped worker was waiting for", async () => {
    const h = await makeHarness();
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    void h.engine.pay({ requestId: "w", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    h.restart();
    const resumed = h.engine.pay({ requestId: "w", challenge }, CALLER);
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });
    const answer = await resumed;
    expect(answer.paymentId).toBe(id);
    expect((await onlyPayment(h)).state).toBe("signed");
    expect(h.windows.opened).toHaveLength(1);
  });
});

describe("PaymentEngine.pay, a price that runs out while the person decides", () => {
  // Nothing can be paid after it, and the page waits for an answer: the question is taken back.
  it("takes the question back at the Quote's end: the page is answered, the payment expired, nothing signed", async () => {
    const h = await makeHarness();
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    void h.engine.pay({ requestId: "late", challenge }, CALLER).catch(() => undefined);
    await until(async () => (await pendingIds(h)).length === 1);
    // The worker stopped while the person read the window; the page asks again after the end.
    h.restart();
    h.clock.ms += 3_600_000;
    await expect(h.engine.pay({ requestId: "late", challenge }, CALLER)).rejects.toMatchObject({
      code: "policy-refused",
      message: "The price expired before you decided",
    });
    expect(await pendingIds(h)).toEqual([]);
    const payment = await onlyPayment(h);
    expect(payment).toMatchObject({
      state: "expired",
      reason: "The price expired before you decided",
    });
    expect(payment.proof).toBeUndefined();
    expect(payment.confirmation).toBeUndefined();
  });
});

describe("PaymentEngine.pay, a request asked about before a restart", () => {
  it("leaves the window once a budget set meanwhile pays it: nobody is offered to decline a signed payment", async () => {
    const h = await makeHarness();
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    void h.engine.pay({ requestId: "w", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    h.restart();
    // The person gives the site a budget (from the options page, or another of its requests).
    await h.policy.save({ ...(await h.policy.view()), ...autoPolicy.policy });
    const answer = await h.engine.pay({ requestId: "w", challenge }, CALLER);
    expect((await onlyPayment(h)).state).toBe("signed");
    expect(answer.paymentId).toBe((await onlyPayment(h)).id);
    expect(await pendingIds(h)).toEqual([]);
    expect(h.windows.closed).toHaveLength(1);
  });
});

describe("PaymentEngine.elicit", () => {
  it("confirms by elicitation, then pays the same Quote without asking, bound to that Confirmation", async () => {
    const h = await makeHarness();
    const { challenge, jws } = await stipendexMcpChallenge(h.receiver);
    const elicited = h.engine.elicit(
      {
        server: MCP_SERVER,
        params: { message: "Pay?", _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws } } },
      },
      CALLER,
    );
    await until(async () => (await pendingIds(h)).length === 1);
    const [pending] = await h.approvals.pending();
    expect(pending?.kind).toBe("elicitation");
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "approve" });
    const result = await elicited;
    expect(result.action).toBe("accept");
    const given = String(result.content?.confirmation);

    const quote = await verifyQuote(jws, { descriptor: h.receiver.descriptor, now: at(h) });
    const confirmation = await verifyConfirmation(given, {
      receiverId: RECEIVER,
      quoteHash: quote.hash,
      now: at(h),
    });
    expect(confirmation.claims).toMatchObject({
      mode: "elicitation",
      decision: "approve",
      qh: quote.hash,
      origin: AGENT,
    });

    const answer = await h.engine.pay({ requestId: "after-elicit", challenge }, CALLER);
    expect(h.windows.opened).toHaveLength(1);
    expect(await h.approvals.pending()).toEqual([]);
    const proofJws = (answer.meta?.value as { jws?: string } | undefined)?.jws;
    const proof = await verifyProof(proofJws, { quote, receiverId: RECEIVER, now: at(h) });
    expect(proof.claims.ch).toBe(await objectHash(given));
    expect((await h.db.payments.get(answer.paymentId))?.confirmation).toBe(given);
    // Used once: the same Quote asked again is a replay, not a second payment.
    await expect(h.engine.pay({ requestId: "again", challenge }, CALLER)).rejects.toMatchObject({
      name: "PaymentError",
      code: "unreadable-challenge",
    });
  });

  it("declines an elicitation its caller withdraws while the person decides: nothing confirmed nor charged", async () => {
    const h = await makeHarness();
    const { jws } = await stipendexMcpChallenge(h.receiver);
    const params = {
      server: MCP_SERVER,
      requestId: "e1",
      params: { message: "Pay?", _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws } } },
    };
    const elicited = h.engine.elicit(params, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    // Another tab's elicitation with the same id is not this page's to withdraw.
    await h.engine.withdraw("e1", { ...CALLER, tabId: 99 });
    expect(await pendingIds(h)).toHaveLength(1);
    await h.engine.withdraw("e1", CALLER);
    expect(await elicited).toEqual({ action: "decline" });
    await assertWithdrawnUnsigned(h);
  });

  it("never asks about an elicitation withdrawn before the wallet got to it", async () => {
    const h = await makeHarness(autoPolicy);
    const { jws } = await stipendexMcpChallenge(h.receiver);
    await h.engine.withdraw("early", CALLER);
    const answer = await h.engine.elicit(
      {
        server: MCP_SERVER,
        requestId: "early",
        params: { message: "Pay?", _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws } } },
      },
      CALLER,
    );
    expect(answer).toEqual({ action: "cancel" });
    expect(h.windows.opened).toHaveLength(0);
    expect((await onlyPayment(h)).state).toBe("declined");
    expect([...(await readAllSums(h.db)).values()].every((sum) => sum === 0n)).toBe(true);
  });

  it("does not confirm nor charge an elicitation whose Quote expired while the person decided", async () => {
    const h = await makeHarness();
    const { jws } = await stipendexMcpChallenge(h.receiver);
    const elicited = h.engine.elicit(
      {
        server: MCP_SERVER,
        params: { message: "Pay?", _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws } } },
      },
      CALLER,
    );
    await until(async () => (await pendingIds(h)).length === 1);
    const [approved] = await h.db.payments.toArray();
    h.clock.ms = (approved?.offer.quote?.expiresAt ?? 0) * 1000;
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });
    expect(await elicited).toEqual({ action: "decline" });
    const payment = await onlyPayment(h);
    expect(payment.state).toBe("expired");
    expect(payment.reason).toMatch(/expired before/);
    expect(payment.charge).toBeUndefined();
    expect([...(await readAllSums(h.db)).values()].every((sum) => sum === 0n)).toBe(true);
  });

  it("answers an elicitation under the site's budget without a window, as a policy Confirmation", async () => {
    const h = await makeHarness(autoPolicy);
    const { challenge, jws } = await stipendexMcpChallenge(h.receiver);
    const result = await h.engine.elicit(
      {
        server: MCP_SERVER,
        call: SEARCH_CALL,
        params: { _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws } } },
      },
      CALLER,
    );
    expect(result.action).toBe("accept");
    expect(h.windows.opened).toHaveLength(0);
    const confirmation = await verifyConfirmation(String(result.content?.confirmation), {
      receiverId: RECEIVER,
      now: at(h),
    });
    expect(confirmation.claims).toMatchObject({
      mode: "policy",
      humanPresent: false,
      decision: "approve",
    });
    const answer = await h.engine.pay({ requestId: "after-auto-elicit", challenge }, CALLER);
    expect((await h.db.payments.get(answer.paymentId))?.state).toBe("signed");
    expect(h.windows.opened).toHaveLength(0);
  });

  it("asks the person about an elicitation that came with no tools/call, whatever the site's budget", async () => {
    const h = await makeHarness(autoPolicy);
    const { jws } = await stipendexMcpChallenge(h.receiver);
    const elicited = h.engine.elicit(
      {
        server: MCP_SERVER,
        params: { _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws } } },
      },
      CALLER,
    );
    await until(async () => (await pendingIds(h)).length === 1);
    const [pending] = await h.approvals.pending();
    expect(pending?.resource).toMatchObject({ kind: "mcp", argumentsUnknown: true });
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "decline" });
    expect(await elicited).toEqual({ action: "decline" });
    expect([...(await readAllSums(h.db)).values()].every((sum) => sum === 0n)).toBe(true);
  });

  it("checks an elicited Quote against the tools/call in flight that carried it", async () => {
    const h = await makeHarness(autoPolicy);
    const { jws } = await stipendexMcpChallenge(h.receiver, { q: "x" });
    const meta = { "stipendex/quote": { stipendex: "quote/0.1", jws } };
    await expect(
      h.engine.elicit(
        {
          server: MCP_SERVER,
          call: { tool: "search", arguments: { q: "other" } },
          params: { _meta: meta },
        },
        CALLER,
      ),
    ).rejects.toThrow(/argsHash|arguments/);
    const answered = await h.engine.elicit(
      {
        server: MCP_SERVER,
        call: { tool: "search", arguments: { q: "x" } },
        params: { _meta: meta },
      },
      CALLER,
    );
    expect(answered.action).toBe("accept");
  });

  it("honours the server's requestedSchema: a form it cannot fill is refused in the history, before anyone is asked", async () => {
    const h = await makeHarness(autoPolicy);
    const { jws } = await stipendexMcpChallenge(h.receiver);
    const meta = { "stipendex/quote": { stipendex: "quote/0.1", jws } };
    const schema = (confirmation: Record<string, unknown>, required = ["confirmation"]) => ({
      type: "object",
      properties: { confirmation, email: { type: "string" } },
      required,
    });
    const refused = await h.engine.elicit(
      {
        server: MCP_SERVER,
        call: SEARCH_CALL,
        params: {
          _meta: meta,
          requestedSchema: schema({ type: "string" }, ["confirmation", "email"]),
        },
      },
      CALLER,
    );
    expect(refused).toEqual({ action: "decline" });
    expect(h.windows.opened).toHaveLength(0);
    const [entry] = await h.db.payments.toArray();
    expect(entry?.state).toBe("refused");
    expect(entry?.reason).toBe(
      `The server's form cannot take a Confirmation: it also requires "email", which the wallet does not fill`,
    );
    expect([...(await readAllSums(h.db)).values()].every((sum) => sum === 0n)).toBe(true);

    const { jws: second } = await stipendexMcpChallenge(h.receiver, { q: "short" });
    const tooShort = await h.engine.elicit(
      {
        server: MCP_SERVER,
        call: { tool: "search", arguments: { q: "short" } },
        params: {
          _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws: second } },
          requestedSchema: schema({ type: "string", maxLength: 40 }),
        },
      },
      CALLER,
    );
    expect(tooShort).toEqual({ action: "decline" });
    expect([...(await readAllSums(h.db)).values()].every((sum) => sum === 0n)).toBe(true);
    const reasons = (await h.db.payments.filter((p) => p.state === "refused").toArray()).map(
      (p) => p.reason,
    );
    expect(reasons).toHaveLength(2);
    expect(reasons.find((r) => r?.includes("at most"))).toMatch(
      /takes at most 40 characters; the Confirmation has \d+/,
    );

    const { jws: third } = await stipendexMcpChallenge(h.receiver, { q: "fits" });
    const fits = await h.engine.elicit(
      {
        server: MCP_SERVER,
        call: { tool: "search", arguments: { q: "fits" } },
        params: {
          _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws: third } },
          requestedSchema: schema({ type: "string", description: "Confirmation JWS" }),
        },
      },
      CALLER,
    );
    expect(fits.action).toBe("accept");
    expect(Object.keys(fits.content ?? {})).toEqual(["confirmation"]);
  });

  it("declines when the person declines, and refuses a Quote for another server", async () => {
    const h = await makeHarness();
    const { jws, challenge } = await stipendexMcpChallenge(h.receiver);
    const meta = { "stipendex/quote": { stipendex: "quote/0.1", jws } };
    await expect(
      h.engine.elicit({ server: `${RECEIVER}/other`, params: { _meta: meta } }, CALLER),
    ).rejects.toMatchObject({ name: "PaymentError", code: "unreadable-challenge" });

    const elicited = h.engine.elicit({ server: MCP_SERVER, params: { _meta: meta } }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "decline" });
    expect(await elicited).toEqual({ action: "decline" });
    // The decline is in the history, and paying the Quote anyway asks afresh.
    const declined = await h.db.payments.filter((p) => p.state === "declined").toArray();
    expect(declined).toHaveLength(1);
    const paid = h.engine.pay({ requestId: "after-decline", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [again] = await pendingIds(h);
    await h.approvals.decide({ approvalId: again ?? "", decision: "decline" });
    await expect(paid).rejects.toMatchObject({ name: "PaymentError", code: "user-declined" });
  });
});

describe("PaymentEngine: a hostile page cannot borrow consent", () => {
  const OTHER: Caller = { origin: "https://other.example", tabId: 9, frameId: 0 };
  const elicitParams = (jws: string) => ({
    server: MCP_SERVER,
    call: SEARCH_CALL,
    params: { _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws } } },
  });

  it("asks a second origin that pays a Quote another origin's elicitation confirmed", async () => {
    const h = await makeHarness();
    const { challenge, jws } = await stipendexMcpChallenge(h.receiver);
    const elicited = h.engine.elicit(elicitParams(jws), CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [first] = await pendingIds(h);
    await h.approvals.decide({ approvalId: first ?? "", decision: "approve" });
    expect((await elicited).action).toBe("accept");

    const stolen = h.engine.pay({ requestId: "steal", challenge }, OTHER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [pending] = await h.approvals.pending();
    expect(pending).toMatchObject({ kind: "payment", origin: OTHER.origin });
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "decline" });
    await expect(stolen).rejects.toMatchObject({ name: "PaymentError", code: "user-declined" });

    // The origin that asked still pays with its own Confirmation, without a window.
    const answer = await h.engine.pay({ requestId: "mine", challenge }, CALLER);
    expect((await h.db.payments.get(answer.paymentId))?.state).toBe("signed");
    expect(await h.approvals.pending()).toEqual([]);
  });

  /** The site's budget answered an elicitation of a fresh Quote: approved, and charged on its day. */
  async function elicitedUnderBudget() {
    const h = await makeHarness(autoPolicy);
    const { challenge, jws } = await stipendexMcpChallenge(h.receiver);
    const dayKey = sumKeysToCharge(AGENT, "USD", h.clock.ms)[2] ?? "";
    expect((await h.engine.elicit(elicitParams(jws), CALLER)).action).toBe("accept");
    const [approved] = await h.db.payments.toArray();
    return { h, challenge, dayKey, approved };
  }

  it("charges an elicitation answered under a budget to that budget when it answers, once", async () => {
    const h = await makeHarness(autoPolicy);
    const { challenge, jws } = await stipendexMcpChallenge(h.receiver);
    const dayKey = sumKeysToCharge(AGENT, "USD", h.clock.ms)[2] ?? "";
    expect((await h.engine.elicit(elicitParams(jws), CALLER)).action).toBe("accept");
    expect((await readAllSums(h.db)).get(dayKey)).toBe(5000n);
    const answer = await h.engine.pay({ requestId: "p", challenge }, CALLER);
    expect((await h.db.payments.get(answer.paymentId))?.state).toBe("signed");
    expect((await readAllSums(h.db)).get(dayKey)).toBe(5000n);
  });

  // More of the kind the black-box review found for payments: two elicitations at once under a
  // budget covering one, the second's charge refused by the budget the first spent: declined unasked.
  it("asks the person about an elicitation the budget covered when the policy looked but one answered at once has spent", async () => {
    const budget = { ...AUTO_BUDGET, amount: "7500", autoApproveUpTo: "5000" };
    const h = await makeHarness({ policy: { origins: { [AGENT]: budget } } });
    const quotes = await Promise.all([0, 1].map(() => stipendexMcpChallenge(h.receiver)));
    const answering = quotes.map(({ jws }) => h.engine.elicit(elicitParams(jws), CALLER));
    await until(async () => (await pendingIds(h)).length === 1);
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });
    const answers = await Promise.all(answering);
    expect(answers.map((a) => a.action)).toEqual(["accept", "accept"]);
    const payments = await h.db.payments.toArray();
    expect(payments.map((p) => [p.state, p.approvedBy]).sort()).toEqual([
      ["approved", "person"],
      ["approved", "policy"],
    ]);
  });

  it("charges an elicitation sent twice at once (a relay's resend) once, and answers both alike", async () => {
    const h = await makeHarness(autoPolicy);
    const { challenge, jws } = await stipendexMcpChallenge(h.receiver);
    const dayKey = sumKeysToCharge(AGENT, "USD", h.clock.ms)[2] ?? "";
    const [first, repeat] = await Promise.all([
      h.engine.elicit(elicitParams(jws), CALLER),
      h.engine.elicit(elicitParams(jws), CALLER),
    ]);
    expect(first.action).toBe("accept");
    expect(repeat).toEqual(first);
    expect(await h.db.payments.count()).toBe(1);
    expect((await readAllSums(h.db)).get(dayKey)).toBe(5000n);
    const answer = await h.engine.pay({ requestId: "p", challenge }, CALLER);
    expect((await h.db.payments.get(answer.paymentId))?.state).toBe("signed");
    expect((await readAllSums(h.db)).get(dayKey)).toBe(5000n);
  });

  it("gives an elicitation's charge back once its Quote expired with no payment using it", async () => {
    const { h, dayKey, approved } = await elicitedUnderBudget();
    expect((await readAllSums(h.db)).get(dayKey)).toBe(5000n);
    const expiresAt = (approved?.offer.quote?.expiresAt ?? 0) * 1000;
    let released = 0;
    const track = () =>
      trackSettlements({
        db: h.db,
        endpointFor: async () => undefined,
        now: () => h.clock.ms,
        released: () => {
          released++;
        },
        unsettled: () => undefined,
      });
    // The server may still ask for the payment until the Quote expires: the charge stands.
    expect(await track()).toBe(expiresAt);
    expect((await readAllSums(h.db)).get(dayKey)).toBe(5000n);
    h.clock.ms = expiresAt;
    expect(await track()).toBeUndefined();
    expect(released).toBe(1);
    expect((await readAllSums(h.db)).get(dayKey)).toBe(0n);
    const payment = await h.db.payments.get(approved?.id ?? "");
    expect(payment).toMatchObject({
      state: "expired",
      reason:
        "Not charged: you approved it, but its Quote expired before the server asked for the payment",
      releasedCharge: { micro: "5000", releasedAt: expiresAt },
    });
    expect(payment?.charge).toBeUndefined();
    expect(payment?.checkAt).toBeUndefined();
  });

  it("gives an elicitation's charge back when its Quote expired by the time its payment came", async () => {
    const { h, challenge, dayKey, approved } = await elicitedUnderBudget();
    // Past its expiry, within the clock tolerance a Quote is read with: read, but not signed.
    h.clock.ms = (approved?.offer.quote?.expiresAt ?? 0) * 1000 + 2_000;
    await expect(h.engine.pay({ requestId: "late", challenge }, CALLER)).rejects.toMatchObject({
      code: "policy-refused",
      message: expect.stringMatching(/expired before it was signed/),
    });
    expect((await readAllSums(h.db)).get(dayKey)).toBe(0n);
    const payment = await h.db.payments.get(approved?.id ?? "");
    expect(payment).toMatchObject({ state: "expired", releasedCharge: { micro: "5000" } });
    expect(payment?.proof).toBeUndefined();
    expect(payment?.charge).toBeUndefined();
  });

  it("gives the charge back when another caller signed the same Quote first", async () => {
    const h = await makeHarness(autoPolicy);
    const { challenge, jws } = await stipendexMcpChallenge(h.receiver);
    const dayKey = sumKeysToCharge(AGENT, "USD", h.clock.ms)[2] ?? "";
    await h.engine.elicit(elicitParams(jws), CALLER);
    const paidByOther = h.engine.pay({ requestId: "o", challenge }, OTHER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });
    await paidByOther;
    // Not a budget refusal: the Quote was paid (a page sees InvalidQuote, see rpc-error.ts).
    await expect(h.engine.pay({ requestId: "p", challenge }, CALLER)).rejects.toMatchObject({
      name: "WalletError",
      code: "quote-already-paid",
    });
    expect((await readAllSums(h.db)).get(dayKey)).toBe(0n);
  });

  it("keys an unsigned x402 price on network and pay-to: a URL on the allow list is only a claim", async () => {
    const h = await makeHarness({
      policy: {
        origins: { [AGENT]: TEST_AUTO_BUDGET },
        receivers: { allow: ["http://127.0.0.1:4021"], deny: [] },
      },
    });
    const paid = h.engine.pay({ requestId: "x", challenge: x402HttpChallenge(2) }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [pending] = await h.approvals.pending();
    expect(pending?.receiver).toEqual({
      // Shown with the address checksummed, as the pay-to beside it.
      id: `eip155:84532:${PAY_TO}`,
      verified: false,
      claimedBy: "http://127.0.0.1:4021",
    });
    expect(pending?.payTo).toBe(PAY_TO);
    expect(pending?.warnings).toContain("first-payment-to-receiver");
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "decline" });
    await expect(paid).rejects.toMatchObject({ name: "PaymentError", code: "user-declined" });
  });

  describe("a payee on the deny list, by any name it goes by", () => {
    const refusedUnsigned = async (h: Harness, challenge: PaymentChallenge) => {
      await expect(h.engine.pay({ requestId: "d", challenge }, CALLER)).rejects.toMatchObject({
        name: "PaymentError",
        code: "policy-refused",
        rule: "receiver-denied",
      });
      const payment = await onlyPayment(h);
      expect(payment.state).toBe("refused");
      expect(payment.proof).toBeUndefined();
      expect(await pendingIds(h)).toEqual([]);
    };
    const denying = (
      deny: string[],
      origins: Record<string, OriginBudgetView> = { [AGENT]: AUTO_BUDGET },
    ) => makeHarness({ policy: { origins, receivers: { allow: [], deny } } });

    it("refuses a Stipendex Quote paying an account blocked as an x402 receiver is named", async () => {
      const h = await denying([`${RAIL.network}:${RAIL.payTo.toLowerCase()}`]);
      await refusedUnsigned(h, (await stipendexHttpChallenge(h.receiver)).challenge);
    });

    it("refuses a Stipendex Quote paying an address blocked as the window shows it (checksummed)", async () => {
      const h = await denying([RAIL.payTo]);
      await refusedUnsigned(h, (await stipendexHttpChallenge(h.receiver)).challenge);
    });

    it("refuses a Stipendex receiver blocked by a web address with a path or another letter case", async () => {
      const h = await denying([`${RECEIVER.toUpperCase()}/pricing`]);
      await refusedUnsigned(h, (await stipendexHttpChallenge(h.receiver)).challenge);
    });

    it("refuses an x402 price to a payee blocked by its checksummed address, or by its account in capitals", async () => {
      for (const entry of [PAY_TO, `eip155:84532:${PAY_TO.toUpperCase().replace("0X", "0x")}`]) {
        const h = await denying([entry], { [AGENT]: TEST_AUTO_BUDGET });
        await refusedUnsigned(h, x402HttpChallenge(2));
      }
    });

    it("refuses an x402 price served from a blocked site, though it names only an account", async () => {
      const h = await denying(["http://127.0.0.1:4021"], { [AGENT]: TEST_AUTO_BUDGET });
      await refusedUnsigned(h, x402HttpChallenge(1));
    });
  });

  it("writes 'always allow' into the settings as they are, keeping a change made while the window was open", async () => {
    const h = await makeHarness();
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "p", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    await h.policy.update((settings) => ({
      ...settings,
      receivers: { allow: [], deny: ["https://blocked.example"] },
    }));
    const [id] = await pendingIds(h);
    await h.approvals.decide({
      approvalId: id ?? "",
      decision: "approve",
      alwaysAllowPerDay: "50000",
    });
    await paid;
    const view = await h.policy.view();
    expect(view.receivers.deny).toEqual(["https://blocked.example"]);
    expect(view.origins[AGENT]?.amount).toBe("50000");
  });

  // Black-box review: of four payments made at once under a budget covering two, the two the
  // budget could no longer cover when their turn to be charged came were refused, not asked about.
  it("asks, instead of refusing, about a payment the budget covered when the policy looked but a payment made at once has spent", async () => {
    const budget = { ...AUTO_BUDGET, amount: "7500", autoApproveUpTo: "5000" };
    const h = await makeHarness({ policy: { origins: { [AGENT]: budget } } });
    const prices = await Promise.all([0, 1].map(() => stipendexHttpChallenge(h.receiver)));
    const paying = prices.map(({ challenge }, i) =>
      h.engine.pay({ requestId: `at-once-${i}`, challenge }, CALLER),
    );
    await until(async () => (await pendingIds(h)).length === 1);
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });
    const answers = await Promise.all(paying);
    const payments = await Promise.all(answers.map((a) => h.db.payments.get(a.paymentId)));
    expect(payments.map((p) => [p?.state, p?.approvedBy]).sort()).toEqual([
      ["signed", "person"],
      ["signed", "policy"],
    ]);
    expect(await h.db.payments.count()).toBe(2);
  });

  // The same on the asking path: a request asked about before a restart, which a budget set
  // meanwhile approves, charged after a payment made at once spent that budget.
  it("asks, instead of refusing, about a request resumed under a budget a payment made meanwhile spent", async () => {
    const h = await makeHarness();
    const resumed = await stipendexHttpChallenge(h.receiver);
    void h.engine.pay({ requestId: "w", challenge: resumed.challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    h.restart();
    const budget = { ...AUTO_BUDGET, amount: "7500", autoApproveUpTo: "5000" };
    await h.policy.save({ ...(await h.policy.view()), origins: { [AGENT]: budget } });
    const other = await stipendexHttpChallenge(h.receiver);
    const wallet = await h.wallet.current();
    if (!wallet) return expect.unreachable("the harness wallet is locked");
    const account = wallet.evmAccount;
    const signTypedData = account.signTypedData.bind(account);
    let signatures = 0;
    let meanwhile: Promise<PaymentAnswer> | undefined;
    // The resumed request signs on the automatic path (then finds itself known), then once its
    // budget approved it: the other payment is made, and charged, before that second signature.
    account.signTypedData = async (typed) => {
      signatures += 1;
      if (signatures === 2) {
        meanwhile = h.engine.pay({ requestId: "n", challenge: other.challenge }, CALLER);
        await meanwhile;
      }
      return signTypedData(typed);
    };
    const paid = h.engine.pay({ requestId: "w", challenge: resumed.challenge }, CALLER);
    paid.catch(() => undefined);
    // The window the first worker opened is left when the budget approves; it opens again to ask.
    await until(async () => meanwhile !== undefined);
    await meanwhile;
    await until(async () => (await pendingIds(h)).length === 1);
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });
    const answers = [await paid, await meanwhile];
    const payments = await Promise.all(answers.map((a) => h.db.payments.get(a?.paymentId ?? "")));
    expect(payments.map((p) => [p?.state, p?.approvedBy])).toEqual([
      ["signed", "person"],
      ["signed", "policy"],
    ]);
    expect(await h.db.payments.count()).toBe(2);
  });

  it("asks again, instead of refusing, once the site's budget is used up", async () => {
    const h = await makeHarness(autoPolicy);
    const originDay = sumSlotsToCharge(AGENT, "USD", h.clock.ms)[2];
    if (!originDay) throw new Error("no origin day slot");
    await putSums(h.db, [[originDay, 1_000_000n]], h.clock.ms);
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "p", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });
    const answer = await paid;
    expect((await h.db.payments.get(answer.paymentId))?.state).toBe("signed");
  });
});

// envelope.md §6 refuses an expired or forged Quote: the unsigned x402 price served beside it is
// still offered (a receiver of both bindings), but only the person can say yes to it.
describe("PaymentEngine: an x402 price beside a Quote the wallet refused", () => {
  const beside = async (h: Harness, overrides: Parameters<typeof stipendexHttpChallenge>[1]) => {
    const { challenge } = await stipendexHttpChallenge(h.receiver, overrides);
    return { ...challenge, paymentRequiredHeader: encodeBase64Json(v2PaymentRequired) };
  };

  it.each([
    ["expired", { iat: T - 200, exp: T - 60 }],
    ["for another URL", { resource: { http: { method: "GET", url: `${RECEIVER}/other` } } }],
  ])(
    "asks, under a budget that would pay the x402 price alone, when the Quote is %s",
    async (_what, overrides) => {
      const h = await makeHarness(autoTestPolicy);
      const alone = await h.engine.pay(
        { requestId: "alone", challenge: x402HttpChallenge(2) },
        CALLER,
      );
      expect(alone.header?.name).toBe("PAYMENT-SIGNATURE");

      const paid = h.engine.pay(
        { requestId: "beside", challenge: await beside(h, overrides) },
        CALLER,
      );
      await until(async () => (await pendingIds(h)).length === 1);
      const [pending] = await h.approvals.pending();
      expect(pending?.protocol).toBe("x402-v2");
      expect(pending?.warnings).toContain("signed-price-refused");
      await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "decline" });
      await expect(paid).rejects.toMatchObject({ code: "user-declined" });
      const key = requestKeyOf(CALLER, "beside");
      const payment = await h.db.payments.where("requestKey").equals(key).first();
      expect(payment?.state).toBe("declined");
      expect(payment?.proof).toBeUndefined();
    },
  );
});

// Any process of the person's user can connect as a desktop app and name the server it forwards
// to: with a price nobody signed, it names whom to pay too (hostile review: a local process had a
// proxy budget pay its own address, no window).
describe("PaymentEngine: a desktop app's budget and an x402 price, which nobody signs", () => {
  const DESKTOP: Caller = { origin: "proxy:http://127.0.0.1:4021", tabId: undefined };
  const desktopBudget = { policy: { origins: { [DESKTOP.origin]: TEST_AUTO_BUDGET } } };
  const OTHER_PAY_TO = "0x000000000000000000000000000000000000dEaD";
  /** The x402 v2 fixture's price, paid to `payTo`. */
  const priceTo = (payTo: string): PaymentChallenge => ({
    transport: "http",
    url: X402_URL,
    method: "GET",
    body: "{}",
    paymentRequiredHeader: encodeBase64Json({
      ...v2PaymentRequired,
      accepts: [{ ...v2Requirement, payTo }],
    }),
  });
  /** The next request the window is asked, answered `decision`. */
  const answerWindow = async (h: Harness, decision: "approve" | "decline") => {
    await until(async () => (await pendingIds(h)).length === 1);
    const [pending] = await h.approvals.pending();
    expect(pending).toMatchObject({
      origin: DESKTOP.origin,
      protocol: "x402-v2",
      approvesPayee: true,
    });
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision });
  };

  it("asks before it pays an address the person has not approved it to pay, then pays it on its own", async () => {
    const h = await makeHarness(desktopBudget);
    const first = h.engine.pay({ requestId: "d1", challenge: priceTo(PAY_TO) }, DESKTOP);
    await answerWindow(h, "approve");
    expect((await first).header?.name).toBe("PAYMENT-SIGNATURE");

    const second = await h.engine.pay({ requestId: "d2", challenge: priceTo(PAY_TO) }, DESKTOP);
    expect(second.header?.name).toBe("PAYMENT-SIGNATURE");
    expect(await pendingIds(h)).toEqual([]);
    const recorded = async (requestId: string) => {
      const key = requestKeyOf(DESKTOP, requestId);
      const payment = await h.db.payments.where("requestKey").equals(key).first();
      return [payment?.state, payment?.approvedBy];
    };
    expect([await recorded("d1"), await recorded("d2")]).toEqual([
      ["signed", "person"],
      ["signed", "policy"],
    ]);
    // Kept in the wallet's database: a restarted worker knows it too.
    h.restart();
    await h.engine.pay({ requestId: "d3", challenge: priceTo(PAY_TO) }, DESKTOP);
    expect(await pendingIds(h)).toEqual([]);
  });

  it("asks again for another address, and after a decline, while a page's budget pays it alone", async () => {
    const h = await makeHarness({
      policy: { origins: { [DESKTOP.origin]: TEST_AUTO_BUDGET, [AGENT]: TEST_AUTO_BUDGET } },
    });
    const first = h.engine.pay({ requestId: "d1", challenge: priceTo(PAY_TO) }, DESKTOP);
    await answerWindow(h, "approve");
    await first;
    const other = h.engine.pay({ requestId: "d2", challenge: priceTo(OTHER_PAY_TO) }, DESKTOP);
    await answerWindow(h, "decline");
    await expect(other).rejects.toMatchObject({ code: "user-declined" });
    const again = h.engine.pay({ requestId: "d3", challenge: priceTo(OTHER_PAY_TO) }, DESKTOP);
    await answerWindow(h, "decline");
    await expect(again).rejects.toMatchObject({ code: "user-declined" });
    // A page's budget is the page's own: the browser vouches for its origin.
    const page = await h.engine.pay({ requestId: "p1", challenge: priceTo(OTHER_PAY_TO) }, CALLER);
    expect(page.header?.name).toBe("PAYMENT-SIGNATURE");
    expect(await pendingIds(h)).toEqual([]);
  });

  it("pays a Quote its receiver signed under the desktop app's budget without asking", async () => {
    const h = await makeHarness({ policy: { origins: { [DESKTOP.origin]: AUTO_BUDGET } } });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const answer = await h.engine.pay({ requestId: "q1", challenge }, DESKTOP);
    expect(answer.header?.name).toBe("Stipendex-Payment");
    expect(await pendingIds(h)).toEqual([]);
  });
});

describe("PaymentEngine: a site inside another site's page", () => {
  const FRAMER = "https://evil.example";
  /** agent.example in a frame of evil.example, which can drive it: its budget is not for that. */
  const FRAMED: Caller = { ...CALLER, frameId: 7, topOrigin: FRAMER };
  const elicitParams = (jws: string) => ({
    server: MCP_SERVER,
    call: SEARCH_CALL,
    params: { _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws } } },
  });

  /** The one waiting request names the page around the site; the person approves it. */
  async function approveFramed(h: Harness): Promise<void> {
    await until(async () => (await pendingIds(h)).length === 1);
    const [pending] = await h.approvals.pending();
    expect(pending).toMatchObject({ origin: AGENT, topOrigin: FRAMER });
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "approve" });
  }

  async function confirmationOf(h: Harness, jws: string | undefined) {
    return (await verifyConfirmation(jws, { receiverId: RECEIVER, now: at(h) })).claims;
  }

  it.each([
    ["an HTTP 402", stipendexHttpChallenge],
    ["an MCP -32402", stipendexMcpChallenge],
  ] as const)("asks the person to pay %s the site's budget would pay alone", async (_, make) => {
    const h = await makeHarness(autoPolicy);
    const { challenge } = await make(h.receiver);
    const paid = h.engine.pay({ requestId: "framed", challenge }, FRAMED);
    await approveFramed(h);
    const payment = await h.db.payments.get((await paid).paymentId);
    expect(payment).toMatchObject({ state: "signed", approvedBy: "person" });
    expect(await confirmationOf(h, payment?.confirmation)).toMatchObject({
      mode: "popup",
      humanPresent: true,
    });
    expect(h.windows.opened).toHaveLength(1);
  });

  it("asks the person to answer an elicitation the site's budget would answer alone", async () => {
    const h = await makeHarness(autoPolicy);
    const { jws } = await stipendexMcpChallenge(h.receiver);
    const elicited = h.engine.elicit(elicitParams(jws), FRAMED);
    await approveFramed(h);
    const result = await elicited;
    expect(result.action).toBe("accept");
    expect(await confirmationOf(h, String(result.content?.confirmation))).toMatchObject({
      mode: "elicitation",
      humanPresent: true,
    });
    expect((await onlyPayment(h)).approvedBy).toBe("person");
  });

  it.each([
    ["a frame of its own site (which may sit in another site's frame)", AGENT],
    ["a frame of a page with no web origin (a local file, about:blank)", "null"],
  ])("asks the person to pay from %s", async (_, topOrigin) => {
    const h = await makeHarness(autoPolicy);
    const framed: Caller = { ...CALLER, frameId: 7, topOrigin };
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "framed", challenge }, framed);
    await until(async () => (await pendingIds(h)).length === 1);
    const [pending] = await h.approvals.pending();
    expect(pending).toMatchObject({ origin: AGENT, topOrigin });
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "decline" });
    await expect(paid).rejects.toMatchObject({ code: "user-declined" });
    expect(h.windows.opened).toHaveLength(1);
  });

  it("still pays and answers without asking when the site is the top page itself", async () => {
    const h = await makeHarness(autoPolicy);
    const top: Caller = { ...CALLER, frameId: 0, topOrigin: AGENT };
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const answer = await h.engine.pay({ requestId: "top", challenge }, top);
    expect((await h.db.payments.get(answer.paymentId))?.approvedBy).toBe("policy");
    const { jws } = await stipendexMcpChallenge(h.receiver);
    expect((await h.engine.elicit(elicitParams(jws), top)).action).toBe("accept");
    expect(h.windows.opened).toEqual([]);
  });
});

describe("PaymentEngine: what the window is told about an MCP server", () => {
  it("shows the tool's announced price and flags a Quote above it", async () => {
    const h = await makeHarness();
    const book = fileServerReport(
      [],
      {
        server: MCP_SERVER,
        stipendexPayments: { version: "0.1" },
        tools: [{ name: "search", pricing: { model: "per_call", estimate: "0.001 USD" } }],
      },
      AGENT,
    );
    await h.session.set(STORAGE_KEYS.pricing, book);
    const { challenge } = await stipendexMcpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "hinted", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [pending] = await h.approvals.pending();
    expect(pending?.priceHint).toEqual({ estimate: "0.001 USD", model: "per_call" });
    expect(pending?.warnings).toContain("above-price-hint");
    expect(pending?.warnings).not.toContain("server-did-not-declare-payments");
    expect(pending?.declaredPayments).toEqual({ version: "0.1" });
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "decline" });
    await expect(paid).rejects.toMatchObject({ name: "PaymentError", code: "user-declined" });
  });

  it("asks instead of auto-approving a price above its hint, where the site's rule says so", async () => {
    const h = await makeHarness({
      policy: { origins: { [AGENT]: { ...AUTO_BUDGET, withinPriceHint: true } } },
    });
    const report = {
      server: MCP_SERVER,
      stipendexPayments: {},
      tools: [{ name: "search", pricing: { estimate: "0.001 USD" } }],
    };
    await h.session.set(STORAGE_KEYS.pricing, fileServerReport([], report, AGENT));
    const { challenge } = await stipendexMcpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "above", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [id] = await pendingIds(h);
    await h.approvals.decide({ approvalId: id ?? "", decision: "approve" });
    expect((await h.db.payments.get((await paid).paymentId))?.state).toBe("signed");

    // At the announced price, the same rule pays without asking.
    const atHint = { ...report, tools: [{ name: "search", pricing: { estimate: "0.005 USD" } }] };
    await h.session.set(STORAGE_KEYS.pricing, fileServerReport([], atHint, AGENT));
    const next = await stipendexMcpChallenge(h.receiver);
    const answer = await h.engine.pay({ requestId: "at", challenge: next.challenge }, CALLER);
    expect((await h.db.payments.get(answer.paymentId))?.state).toBe("signed");
    expect(h.windows.opened).toHaveLength(1);
  });

  it("reads only the paying site's own report of the server, whatever another site says of it", async () => {
    const h = await makeHarness({
      policy: { origins: { [AGENT]: { ...AUTO_BUDGET, withinPriceHint: true } } },
    });
    const own = {
      server: MCP_SERVER,
      tools: [{ name: "search", pricing: { estimate: "0.001 USD" } }],
    };
    const evil = {
      server: MCP_SERVER,
      stipendexPayments: { version: "0.1" },
      tools: [{ name: "search", pricing: { estimate: "1 USD" } }],
    };
    const book = fileServerReport(fileServerReport([], own, AGENT), evil, "https://evil.example");
    await h.session.set(STORAGE_KEYS.pricing, book);
    const { challenge } = await stipendexMcpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "own-hint", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [pending] = await h.approvals.pending();
    expect(pending?.priceHint).toEqual({ estimate: "0.001 USD" });
    expect(pending?.warnings).toContain("above-price-hint");
    expect(pending?.warnings).toContain("server-did-not-declare-payments");
    expect(pending?.declaredPayments).toBeUndefined();
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "decline" });
    await expect(paid).rejects.toMatchObject({ name: "PaymentError", code: "user-declined" });
  });

  it("still asks to pay a -32402 from a server that never declared Stipendex payments, flagged", async () => {
    const h = await makeHarness();
    const { challenge } = await stipendexMcpChallenge(h.receiver);
    const paid = h.engine.pay({ requestId: "undeclared", challenge }, CALLER);
    await until(async () => (await pendingIds(h)).length === 1);
    const [pending] = await h.approvals.pending();
    expect(pending?.warnings).toContain("server-did-not-declare-payments");
    expect(pending?.priceHint).toBeUndefined();
    expect(pending?.declaredPayments).toBeUndefined();
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "approve" });
    expect((await h.db.payments.get((await paid).paymentId))?.state).toBe("signed");
  });
});

describe("chooseOption", () => {
  it("takes the first option the settings allow", async () => {
    const h = await makeHarness();
    const settings = await h.policy.settings();
    const option = (network: string) => ({
      scheme: "exact" as const,
      network: network as `eip155:${number}`,
      chainId: Number(network.split(":")[1]),
      asset: RAIL.asset as Address,
      amount: 5000n,
      decimals: 6,
      symbol: "USDC",
      payTo: RAIL.payTo as Address,
      maxTimeoutSeconds: 60,
      eip712: { name: "USD Coin", version: "2" },
      raw: {},
    });
    const offer = {
      protocol: "stipendex" as const,
      transport: "http" as const,
      receiver: RECEIVER,
      resource: { kind: "http" as const, method: "GET", url: `${RECEIVER}/x` },
      description: "x",
      options: [option("eip155:999"), option("eip155:8453")],
    };
    expect(chooseOption(settings, offer).network).toBe("eip155:8453");
    expect(chooseOption(settings, { ...offer, options: [option("eip155:999")] }).network).toBe(
      "eip155:999",
    );
    expect(() => chooseOption(settings, { ...offer, options: [] })).toThrow(
      expect.objectContaining({ name: "PaymentError", code: "unreadable-challenge" }),
    );
  });
});
