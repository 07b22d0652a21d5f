import { errorText } from "../errors";
import { holdReceipt } from "../hook/held-receipt";
import { type HttpPayer, payHttp402, pricedUrl } from "../hook/http-payment";
import { type JsonRpcId, type JsonRpcRequest, readJsonRpcRequest } from "../hook/jsonrpc";
import { createMcpHook, type McpHook } from "../hook/mcp-hook";
import { answerReceipt, isMcpPriceAnswer, toolCallOf, withCall } from "../hook/mcp-payment";
import { McpSessions } from "../hook/mcp-session";
import { makeReplayable } from "../hook/replay";
import { answerToCall, type PaidOutcome, type Resumptions } from "./call-answers";
import { failureText, PaidRetryError, UnpaidHttp402Error, UpstreamAnswerError } from "./errors";
import { notePaidAtHttp } from "./forwarded-call";
import type { ProxyWallet } from "./paid-call";

/**
 * The fetch under the proxy's MCP client, for servers that answer a tools/call
 * with HTTP 402 (seed 004: an x402 `accepts[]` body, paid with `X-PAYMENT`),
 * which the SDK's transport would only fail with: the 402 is paid as the page
 * hook pays one (hook/http-payment.ts) and the transport gets the paid answer.
 * A paid retry the server refuses (a 402: its words kept) or does not answer
 * (no HTTP answer, an HTTP error, a 2xx that is not the call's answer) fails
 * with a PaidRetryError, so the host is told the wallet paid; an SSE stream
 * that ends without the answer is told so by call-answers.ts, and the
 * receipt is filed once the answer came or did not: an answer that is a
 * JSON-RPC error is filed as one (beside the settle header, when one came),
 * and handed to the host as the server's. The host's
 * `notifications/cancelled` of the call withdraws it while the wallet asks.
 * A 402 whose body is the call's JSON-RPC -32402 is handed on as the JSON-RPC
 * answer it is (paid-call.ts pays it). Everything else passes through.
 */
export function payingHttp402(
  base: typeof fetch,
  wallet: ProxyWallet,
  resumptions: Resumptions,
): typeof fetch {
  const half = createMcpHook();
  const calls = new McpSessions();
  return async (input, init) => {
    const request = readJsonRpcRequest(init?.body);
    if (!request || input instanceof Request) return base(input, init);
    const url = new URL(input).href;
    const client = {
      server: url,
      sessionId: new Headers(init?.headers).get("mcp-session-id"),
      signal: init?.signal ?? undefined,
    };
    const cancelled = request.params?.requestId;
    if (request.method === "notifications/cancelled") {
      if (typeof cancelled === "string" || typeof cancelled === "number") {
        calls.cancel({ ...client, id: cancelled }, "cancelled by the host");
      }
    }
    const { id } = request;
    if (request.method !== "tools/call" || id === undefined) return base(input, init);
    // Registered before it is sent: the host may give it up before its answer comes.
    const inFlight = calls.callSignal({ ...client, id });
    try {
      return await paying(url, init, { ...request, id }, inFlight.signal);
    } finally {
      inFlight.end();
    }
  };

  /** The tools/call `request`, sent, and its HTTP 402 paid; `signal` gives it up. */
  async function paying(
    url: string,
    init: RequestInit | undefined,
    request: JsonRpcRequest & { id: JsonRpcId },
    signal: AbortSignal,
  ): Promise<Response> {
    const replayable = makeReplayable(url, init, url);
    const response = await base(...(replayable.first ?? [url, init]));
    if (response.status !== 402) return response;
    if (await isMcpPriceAnswer(response, request)) {
      const { statusText, headers } = response;
      return new Response(response.body, { status: 200, statusText, headers });
    }
    const method = init?.method ?? "GET";
    const priced = pricedUrl({ url, method }, response);
    if (priced === undefined) return response;
    const { payer, made, held } = paymentOf(wallet, base, half, request);
    let paid: Response;
    try {
      paid = await payHttp402(response, { url: priced, method, replayable, signal }, payer);
    } catch (error) {
      if (made.paymentId === undefined) throw error;
      await response.body?.cancel().catch(() => undefined);
      const why = failureText(error);
      throw new PaidRetryError(made.paymentId, undefined, why, { cause: error });
    }
    // The 402 handed on no further is let go (its body would error once the session aborts).
    if (paid !== response || made.paymentId !== undefined) {
      await response.body?.cancel().catch(() => undefined);
    }
    if (made.paymentId === undefined) {
      // Not paid: the host is told why (declined, locked, ...), as for a price in MCP.
      if (paid !== response || made.unpaid === undefined) return paid;
      const price = await response.text().catch(() => "");
      throw new UnpaidHttp402Error(price, errorText(made.unpaid), { cause: made.unpaid });
    }
    if (paid.status === 402) {
      // The server's refusal of the payment (seed 004: its reason verbatim in the 402).
      await paid.body?.cancel().catch(() => undefined);
      const said = await made.refused;
      throw new PaidRetryError(made.paymentId, said, `HTTP 402: ${said}`);
    }
    if (!paid.ok) {
      await paid.body?.cancel().catch(() => undefined);
      const status = `HTTP ${paid.status} ${paid.statusText}`.trim();
      throw new PaidRetryError(made.paymentId, undefined, status);
    }
    const { paymentId } = made;
    // Filed once the answer is known (an SSE answer is handed on before it comes), and as
    // it is: a JSON-RPC error answer is no result, a refusal no payment taken.
    /** A price answering the paid call: the server's refusal of the payment made. */
    let refusal: string | undefined;
    const settled = (outcome: PaidOutcome) => {
      if ("answer" in outcome) {
        refusal = answerReceipt(outcome.answer, paymentId, 200).error?.message;
        held.note(outcome.answer);
      }
      held.file("failure" in outcome ? outcome.failure.unanswered : undefined);
    };
    let answer: Response;
    try {
      answer = await answerToCall(paid, request.id, { paymentId, settled }, resumptions);
    } catch (error) {
      // No answer to the call in it, or a body that broke off before its end.
      const answered = error instanceof UpstreamAnswerError ? error : undefined;
      held.file(answered?.unanswered ?? "no-response");
      const why = answered?.message ?? failureText(error);
      throw new PaidRetryError(paymentId, undefined, why, { cause: error });
    }
    // Not handed on as a price, which callPaying would pay again in the same call: a fresh price
    // is never paid without a new decision (envelope.md section 7). (A JSON answer is judged by now.)
    if (refusal === undefined) return answer;
    await answer.body?.cancel().catch(() => undefined);
    throw new PaidRetryError(paymentId, refusal, `its answer: ${refusal}`);
  }
}

/**
 * The HTTP binding's payer for one 402, and what became of its payment: the
 * payment made; the receipt of a paid 2xx answer, held back (hook/held-receipt.ts)
 * until it is known to answer the call; what a 402 refusing the paid retry said.
 */
function paymentOf(
  wallet: ProxyWallet,
  base: typeof fetch,
  half: McpHook,
  request: JsonRpcRequest & { id: JsonRpcId },
) {
  let refused: (said: string) => void = () => undefined;
  const made: { paymentId?: string; unpaid?: unknown; refused: Promise<string> } = {
    refused: new Promise((resolve) => {
      refused = resolve;
    }),
  };
  const call = toolCallOf(request);
  const held = holdReceipt(
    {
      pay: async (challenge, signal) => {
        // The price names the address: the window is also told the call the host says it is.
        const answer = await wallet
          .pay(withCall(challenge, call), signal)
          .catch((error: unknown) => {
            made.unpaid = error;
            throw error;
          });
        if (answer.header) {
          made.paymentId = answer.paymentId;
          notePaidAtHttp(answer.paymentId);
        }
        return answer;
      },
      receipt: (params) => void wallet.receipt(params).catch(() => undefined),
      elicit: (params, signal) => wallet.elicit(params, signal),
      reportMcpServer: (sighting) => void wallet.report(sighting).catch(() => undefined),
    },
    request.id,
  );
  const payer: HttpPayer = {
    wallet: {
      ...held.wallet,
      receipt: (params) => {
        if (params.error) refused(params.error.message);
        held.wallet.receipt(params);
      },
    },
    nativeFetch: base,
    loadHalf: async () => half,
  };
  return { payer, made, held };
}
