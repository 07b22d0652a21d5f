import { errorText } from "../errors";
import {
  isObject,
  type JsonRpcError,
  PAYMENT_REQUIRED,
  paymentErrorOf,
  x402PaymentResultOf,
} from "../hook/jsonrpc";
import { answerReceipt, paidButUnanswered, withResultHash } from "../hook/mcp-payment";
import { PAGE_LIMITS } from "../hook/wallet-link";
import type {
  ElicitParams,
  ElicitResult,
  McpServerSighting,
  PaymentAnswer,
  PaymentChallenge,
  ReceiptParams,
} from "../messages";
import { readRefusal } from "../payments/refusal";
import { failureText, UpstreamAnswerError } from "./errors";

/** The wallet as the proxy reaches it (over the local channel and native messaging). */
export interface ProxyWallet {
  /**
   * Resolves with how to retry; rejects (a ProxyError) saying why the wallet did not pay.
   * When `signal` aborts while the wallet asks, the request is withdrawn (never signed).
   */
  pay(challenge: PaymentChallenge, signal?: AbortSignal): Promise<PaymentAnswer>;
  receipt(params: ReceiptParams): Promise<void>;
  /** As `pay`: withdrawn when `signal` aborts (the server cancelled its elicitation) while the wallet asks. */
  elicit(params: ElicitParams, signal?: AbortSignal): Promise<ElicitResult>;
  /** What the upstream server declared (capabilities, price hints), for the confirmation window. */
  report(sighting: McpServerSighting): Promise<void>;
}

/** A request's outcome as JSON-RPC carries it: a result, or an error. */
export type CallOutcome = { result: Record<string, unknown> } | { error: JsonRpcError };

/** A tools/call's params as the host sent them. */
export type ToolCallParams = Record<string, unknown> & { name: string };

/**
 * Sends a tools/call upstream; when the server asks to be paid (-32402 with a
 * Stipendex quote, or an x402 PaymentRequired result), has the wallet pay,
 * retries with the payment in `params._meta`, files the receipt and returns
 * the paid outcome. The host only sees a payment error when the wallet did
 * not pay (declined, refused, unreachable) or the server refused the payment:
 * then an error saying why. A paid retry is reported to the wallet however it
 * ends. A call the host cancels (`signal`, its notifications/cancelled) while
 * the wallet asks is withdrawn from the wallet.
 */
export async function callPaying(
  server: string,
  params: ToolCallParams,
  send: (params: ToolCallParams) => Promise<CallOutcome>,
  wallet: ProxyWallet,
  signal?: AbortSignal,
  paidAtHttp: () => string | undefined = () => undefined,
): Promise<CallOutcome> {
  const first = await send(params);
  const asked = paymentErrorOf(first);
  const x402 = asked ? undefined : x402PaymentResultOf(first);
  if (!asked && !x402) return first;
  if (paidAtHttp() !== undefined) {
    // A price answering the payment its HTTP 402 took: the server's refusal of it (filed so by
    // http-402.ts), never paid again in the same call without a new decision (envelope.md section 7).
    return refusedPayment(params.name, "it answered with another price", asked ?? first);
  }
  let answer: PaymentAnswer;
  try {
    answer = await wallet.pay(
      {
        transport: "mcp",
        server,
        tool: params.name,
        arguments: params.arguments,
        ...(asked ? { error: asked } : { result: x402 }),
      },
      signal,
    );
  } catch (error) {
    return notPaid(params.name, errorText(error), asked ?? first);
  }
  if (!answer.meta) {
    return notPaid(params.name, "the wallet answered without an MCP payment", asked ?? first);
  }
  const meta = isObject(params._meta) ? params._meta : {};
  let retried: CallOutcome;
  // Cancelled while the wallet paid: not sent, so the payment never leaves the proxy.
  const sent = !signal?.aborted;
  try {
    signal?.throwIfAborted();
    retried = await send({
      ...params,
      _meta: { ...meta, [answer.meta.key]: answer.meta.value },
    });
  } catch (error) {
    const paid = { paymentId: answer.paymentId, sent, givenUp: signal?.aborted === true && sent };
    return noAnswerToPaidCall(error, server, params.name, paid, wallet, asked ?? first);
  }
  const report = await withResultHash(answerReceipt(retried, answer.paymentId, 200), retried);
  // The receipt is the wallet's record; the paid result is the host's whatever becomes of it.
  await wallet.receipt(report).catch(() => undefined);
  if (report.error) {
    // In the receiver's words, as history files them (-32402 `data.error` and `detail`).
    return refusedPayment(params.name, readRefusal(report.error).said, retried);
  }
  return retried;
}

/**
 * A paid retry that got no JSON-RPC answer: reported to the wallet all the
 * same. An HTTP 402 is the server's refusal (seed 004: a 402 with
 * `payment_parse`), reported as the page hook reports one, and the host gets
 * the original price (envelope.md §7). Anything else is none: another HTTP
 * error, a 2xx, or no HTTP answer at all (status 0, as the HTTP binding
 * reports a connection refused or reset), after which the server may still
 * have taken the paid call. The chain tells whether it collected; the host is
 * told the wallet paid, so it does not take the failure for an unpaid one.
 */
async function noAnswerToPaidCall(
  error: unknown,
  server: string,
  tool: string,
  { paymentId, sent, givenUp }: { paymentId: string; sent: boolean; givenUp: boolean },
  wallet: ProxyWallet,
  original: unknown,
): Promise<CallOutcome> {
  const answered = error instanceof UpstreamAnswerError ? error : undefined;
  const status = answered ? (answered.status ?? 200) : 0;
  if (answered && status === 402) {
    const { message } = answered;
    // The wallet takes no longer message (a gateway's page may be): the status says enough then.
    const said = message && message.length <= PAGE_LIMITS.challenge ? message : `HTTP ${status}`;
    await wallet
      .receipt({ paymentId, status, receipt: null, error: { code: status, message: said } })
      .catch(() => undefined);
    return refusedPayment(tool, `HTTP ${status}: ${message}`, original);
  }
  const unanswered = answered
    ? answered.unanswered
    : !sent
      ? "not-sent"
      : givenUp
        ? "given-up"
        : "no-response";
  await wallet.receipt({ paymentId, status, receipt: null, unanswered }).catch(() => undefined);
  return {
    error: paidButUnanswered(tool, server, answered ? answered.message : failureText(error)),
  };
}

/** Why the call was not paid, as an MCP error the host shows; the server's own request rides in `data`. */
export function notPaid(tool: string, why: string, original: unknown): { error: JsonRpcError } {
  return {
    error: {
      code: PAYMENT_REQUIRED,
      message: `${tool} needs a payment and the Stipendex wallet did not make it: ${why}`,
      data: { upstream: isObject(original) && "error" in original ? original.error : original },
    },
  };
}

/** The server refused the payment the wallet made (`why`, in its words): as notPaid, the server's request in `data`. */
export function refusedPayment(
  tool: string,
  why: string,
  original: unknown,
): { error: JsonRpcError } {
  const { error } = notPaid(tool, why, original);
  return {
    error: {
      ...error,
      message: `The MCP server refused the payment the Stipendex wallet made for ${tool}: ${why}`,
    },
  };
}
