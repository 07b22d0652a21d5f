import { describe, expect, it } from "vitest";
import {
  AGENT,
  CALLER,
  makeHarness,
  RECEIPT_TX,
  TEST_AUTO_BUDGET,
  X402_URL,
  x402HttpChallenge,
} from "../../tests/unit-support/payments/test-support";
import { v2PaymentRequired } from "../../tests/unit-support/protocol/x402/test-fixtures";
import { payHttp402 } from "../hook/http-payment";
import { createMcpHook } from "../hook/mcp-hook";
import { makeReplayable } from "../hook/replay";
import type { ReceiptParams } from "../messages";
import { encodeBase64Json } from "../protocol/x402/wire";
import { fileReceipt } from "./receipts";

/** What the page hook itself reports of a paid retry that the server answered with `retry`. */
async function hookReport(paymentId: string, retry: Response): Promise<ReceiptParams> {
  const reports: ReceiptParams[] = [];
  const first = new Response("{}", {
    status: 402,
    headers: { "PAYMENT-REQUIRED": encodeBase64Json(v2PaymentRequired) },
  });
  await payHttp402(
    first,
    { url: X402_URL, method: "GET", replayable: makeReplayable(X402_URL, undefined, X402_URL) },
    {
      wallet: {
        pay: async () => ({ paymentId, header: { name: "PAYMENT-SIGNATURE", value: "eA==" } }),
        receipt: (params) => reports.push(params),
        elicit: async () => ({ action: "decline" }),
        reportMcpServer: () => undefined,
      },
      nativeFetch: async () => retry,
      loadHalf: async () => createMcpHook(),
    },
  );
  for (let i = 0; i < 50 && reports.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  const report = reports[0];
  if (!report) throw new Error("the hook reported nothing");
  return report;
}

/**
 * Pays an x402 price under a budget, has the server answer the paid retry with
 * `status` and `settle` in `header`, files what the hook reports, and gives the payment as stored.
 */
async function filed(
  version: 1 | 2,
  status: number,
  body: string,
  header: "PAYMENT-RESPONSE" | "X-PAYMENT-RESPONSE",
  settle: (payer: string) => Record<string, unknown>,
) {
  const h = await makeHarness({ policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } });
  const challenge = x402HttpChallenge(version);
  const { paymentId } = await h.engine.pay({ requestId: "x", challenge }, CALLER);
  const headers = { [header]: encodeBase64Json(settle(h.unlocked.address)) };
  const report = await hookReport(paymentId, new Response(body, { status, headers }));
  const { state } = await fileReceipt(h.receipts, report, AGENT);
  return { state, stored: await h.db.payments.get(paymentId) };
}

describe("x402 settle responses as official servers send them, reported by the page hook", () => {
  // @x402/core (processSettlement, buildSettlementFailureResponse): a failed settlement is
  // answered 402, body {}, its reason only in PAYMENT-RESPONSE.
  it("fails a payment whose v2 settlement failed with the settle response's errorReason", async () => {
    const { state, stored } = await filed(2, 402, "{}", "PAYMENT-RESPONSE", (payer) => ({
      success: false,
      errorReason: "insufficient_funds",
      errorMessage: "insufficient_funds",
      payer,
      transaction: "",
      network: "eip155:84532",
    }));
    expect(state).toBe("failed");
    expect(stored?.receiverSaid).toBe("insufficient_funds");
    expect(stored?.reason).toMatch(/does not hold enough of the token/);
  });

  // @x402/evm's "upfront" flow settles before the handler runs; a handler that then fails is
  // answered with the successful settle response (createFailurePathSettlementHeaders).
  it("keeps the claim of a settlement answered with HTTP 500, saying the result never came", async () => {
    const { state, stored } = await filed(
      2,
      500,
      "Internal Server Error",
      "PAYMENT-RESPONSE",
      (payer) => ({
        success: true,
        transaction: RECEIPT_TX,
        network: "eip155:84532",
        payer,
      }),
    );
    expect(state).toBe("signed");
    expect(stored?.receipt).toBeDefined();
    expect(stored?.reason).toMatch(/HTTP 500 instead of the result/);
  });

  // The Python v1 middleware writes X-PAYMENT-RESPONSE with model_dump_json (no exclude_none).
  it("reads unset settle response fields written as null as absent", async () => {
    const { state, stored } = await filed(1, 200, "{}", "X-PAYMENT-RESPONSE", (payer) => ({
      success: true,
      errorReason: null,
      errorMessage: null,
      amount: null,
      transaction: RECEIPT_TX,
      network: "base-sepolia",
      payer,
    }));
    expect(state).toBe("signed");
    expect(stored?.reason).toBeUndefined();
    expect(stored?.receipt).toBeDefined();
  });
});
