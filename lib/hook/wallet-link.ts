import type {
  ElicitParams,
  ElicitResult,
  McpServerSighting,
  PaymentAnswer,
  PaymentChallenge,
  ReceiptParams,
} from "../messages";
import { randomId } from "../random-id";
import type { Notifier, Requester } from "./bridge";

/** What the fetch hook needs from the wallet; the provider's bridge implements it. */
export interface WalletLink {
  /**
   * Resolves with how to retry, or rejects when the payment is declined or
   * refused. `signal` aborted before then withdraws the request.
   */
  pay(challenge: PaymentChallenge, signal?: AbortSignal): Promise<PaymentAnswer>;
  /** Fire and forget: the retry's outcome and receipt. */
  receipt(params: ReceiptParams): void;
  /** As `pay`: `signal` aborted before the answer withdraws the elicitation. */
  elicit(params: ElicitParams, signal?: AbortSignal): Promise<ElicitResult>;
  /** Fire and forget: what an MCP server declared. */
  reportMcpServer(report: McpServerSighting): void;
}

/** The response header of a Stipendex Receipt. */
export const STIPENDEX_RECEIPT_HEADER = "stipendex-receipt";

/** Response headers that carry a receipt, in the order they are looked for. */
export const RECEIPT_HEADERS = [STIPENDEX_RECEIPT_HEADER, "payment-response", "x-payment-response"];

/** How many of a `tools/list`'s tools the hook passes on (the wallet takes no more). */
export const MAX_REPORTED_TOOLS = 200;

/** Largest 402 body the hook hands to the wallet; bigger ones are not prices. */
export const MAX_CHALLENGE_BYTES = 64 * 1024;

/**
 * The size of each field the wallet accepts from a page (lib/background/page-params.ts
 * refuses more); the hook keeps within them.
 */
export const PAGE_LIMITS = {
  /** As long as servers commonly take (nginx's 8 KB request line): a GET may carry a long prompt. */
  url: 8 * 1024,
  requestId: 128,
  /** HTTP methods, MCP tool names, payment ids. */
  name: 256,
  /** Short labels: a pricing model or estimate, a protocol version. */
  label: 64,
  /** A 402 body as the hook reads it (characters never outnumber its bytes). */
  challenge: MAX_CHALLENGE_BYTES,
  /** MCP tool arguments only feed the Quote's `argsHash`, but a real call may carry a document. */
  mcpArguments: 1024 * 1024,
  /** Any other JSON a page passes on (results, error data, receipts, elicitation schemas). */
  json: MAX_CHALLENGE_BYTES,
  jsonDepth: 32,
  tools: MAX_REPORTED_TOOLS,
} as const;

/** The wallet as seen from the page: each call is a message through the relay. */
export function createWalletLink(request: Requester, notify: Notifier): WalletLink {
  /** Asks under a fresh request id, which `signal` aborting withdraws. */
  const withdrawable = <T>(ask: (requestId: string) => Promise<T>, signal?: AbortSignal) => {
    const requestId = randomId();
    const withdraw = () => notify({ method: "stipendex_withdraw", params: { requestId } });
    signal?.addEventListener("abort", withdraw);
    return ask(requestId).finally(() => signal?.removeEventListener("abort", withdraw));
  };
  return {
    pay: (challenge, signal) =>
      withdrawable(
        (requestId) => request({ method: "stipendex_pay", params: { requestId, challenge } }),
        signal,
      ),
    receipt: (params) => notify({ method: "stipendex_receipt", params }),
    elicit: (params, signal) =>
      withdrawable(
        (requestId) => request({ method: "stipendex_elicit", params: { ...params, requestId } }),
        signal,
      ),
    reportMcpServer: (report) => notify({ method: "stipendex_reportMcpServer", params: report }),
  };
}
