import type { Unanswered } from "../messages";
import { holdReceipt } from "./held-receipt";
import type { HttpPayer } from "./http-payment";
import { type JsonRpcRequest, parseJson } from "./jsonrpc";
import {
  handleMcpResponse,
  handleMcpStream,
  isMcpPriceAnswer,
  streamOf,
  toolCallOf,
  withCall,
} from "./mcp-payment";
import {
  type ClientRequest,
  declareElicitation,
  McpSessions,
  type Resumption,
} from "./mcp-session";
import { mediaType } from "./media-type";
import { sendPaidRetry } from "./paid-retry";
import { readCapped } from "./read-capped";
import type { ReplayableRequest } from "./replay";
import { MAX_CHALLENGE_BYTES } from "./wallet-link";
import { settleXhr } from "./xhr-settle";

/**
 * How long a paid call's receipt waits for the page's client to resume the
 * stream its server closed before answering (MCP's SDK retries within 30 s).
 */
const RESUMPTION_PATIENCE_MS = 60_000;

/** A fetch call the hook took, as the MCP half sees it. */
export interface HookedCall {
  args: Parameters<typeof fetch>;
  replayable: ReplayableRequest;
  /** The JSON-RPC request in its body, when there is one. */
  mcpRequest?: JsonRpcRequest;
  /** URL, method and signal without building a Request (which would consume a stream body). */
  describe(): CallDescription;
}

/** A page's fetch call as the hook describes it; `signal`: the page's, to give the request up. */
export interface CallDescription {
  url: string;
  method: string;
  signal?: AbortSignal;
}

/** What the base hook lends the MCP half. */
export interface HookServices extends HttpPayer {
  /** Sends the call (or `sent` instead), as the page would have. */
  send(call: HookedCall, sent?: Parameters<typeof fetch>): Promise<Response>;
  /** The HTTP binding for a 402 (see http-payment.ts); `payer`: to hold the receipt (held-receipt.ts). */
  pay402(call: HookedCall, response: Response, payer?: HttpPayer): Promise<Response>;
}

/**
 * The MCP half of the page hook, loaded on a page's first MCP request (see
 * mcp-loader.ts), or when a paid HTTP answer is to be reported or shown to an
 * XHR: that work stays out of the hook every page carries (<= 10 kB).
 */
export interface McpHook {
  fetch(call: HookedCall, services: HookServices): Promise<Response>;
  /** Sends a paid HTTP retry and reports what it brought (see paid-retry.ts). */
  sendPaidRetry: typeof sendPaidRetry;
  /** Pays the 402 a page's XHR ended with and shows the XHR the outcome (see xhr.ts). */
  settleXhr: typeof settleXhr;
}

/**
 * Pays MCP tool calls refused with -32402 or an x402 PaymentRequired result,
 * answers the elicitations that are the wallet's, and notes what servers
 * declare, on every MCP request and session stream of the page.
 */
export function createMcpHook(): McpHook {
  const sessions = new McpSessions();
  return {
    settleXhr,
    sendPaidRetry,
    async fetch(call, services) {
      const { mcpRequest } = call;
      const [input, init] = call.replayable.first ?? call.args;
      const { url, method, signal } = call.describe();
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
      const sessionId = headers.get("mcp-session-id");
      const client = { server: url, sessionId, signal };
      const declared =
        mcpRequest?.method === "initialize" ? declareElicitation(mcpRequest) : undefined;
      const body = declared?.body ?? (mcpRequest && cancellingCall(mcpRequest, sessions, client));
      // Registered before it is sent: the page's client may give it up before its answer comes.
      const inFlight =
        mcpRequest?.method === "tools/call" && mcpRequest.id !== undefined
          ? sessions.callSignal({ ...client, id: mcpRequest.id })
          : undefined;
      let response: Response;
      let mcpPrice: boolean;
      try {
        response = await services.send(
          call,
          body === undefined ? undefined : [input, { ...init, body }],
        );
        mcpPrice = response.status === 402 && (await isMcpPriceAnswer(response, mcpRequest));
        if (response.status === 402 && !mcpPrice) {
          // Paid the HTTP way (seed 004), given up as the call is: its client's cancellation too.
          const given = inFlight?.signal ?? signal;
          const describe = () => ({ ...call.describe(), ...(given ? { signal: given } : {}) });
          // A tool call's receipt is filed once its answer tells whether it brought the result.
          const held =
            inFlight && mcpRequest?.id !== undefined
              ? holdReceipt(services.wallet, mcpRequest.id)
              : undefined;
          const wallet = held?.wallet ?? services.wallet;
          // The price names the address: the window is also told the call the page says it is.
          const described = mcpRequest && toolCallOf(mcpRequest);
          const payer = {
            ...services,
            wallet: {
              ...wallet,
              pay: (challenge, given) => wallet.pay(withCall(challenge, described), given),
            },
          } satisfies typeof services;
          const paid = await services.pay402({ ...call, describe }, response, payer);
          if (!mcpRequest) return paid;
          const type = mediaType(paid);
          /** What the paid retry brought when the call's answer is not seen in it. */
          let missing: Unanswered | undefined =
            type === "text/event-stream" ? "stream-ended" : "not-an-answer";
          if (held && paid.ok && type === "application/json") {
            const text = await readCapped(paid.clone(), MAX_CHALLENGE_BYTES);
            // Longer than any price or error: a result, filed as answered.
            if (text === undefined) missing = undefined;
            else held.note(parseJson(text));
          }
          // Its SSE may ask what only the wallet answers: a payment, a form it declared for the page.
          const walletAnswersForms = sessions.walletAnswersForms(url, sessionId) ?? false;
          const { replayable } = call;
          const stream = streamOf({
            server: url,
            request: mcpRequest,
            replayable,
            walletAnswersForms,
          });
          const ended = (lastEventId?: string) => {
            inFlight?.end();
            if (!held) return;
            if (lastEventId === undefined || held.answered()) return held.file(missing);
            // Closed before the answer (a server that polls): the receipt waits for the stream the
            // page's client resumes, for a while.
            const resume: Resumption = async (resumed, resumedSignal) => {
              clearTimeout(patience);
              return handleMcpStream(resumed, stream, services.wallet, services.nativeFetch, {
                ...(resumedSignal ? { signal: resumedSignal } : {}),
                ended,
                seen: held.note,
              });
            };
            sessions.awaitResumption(url, sessionId, lastEventId, resume);
            const patience = setTimeout(() => {
              if (sessions.takeResumption(url, sessionId, lastEventId, resume)) held.file(missing);
            }, RESUMPTION_PATIENCE_MS);
          };
          return handleMcpStream(paid, stream, services.wallet, services.nativeFetch, {
            ...(given ? { signal: given } : {}),
            ended,
            ...(held ? { seen: held.note } : {}),
          });
        }
      } catch (error) {
        inFlight?.end();
        throw error;
      }
      if (
        !(response.ok || mcpPrice) ||
        !(mcpRequest || mediaType(response) === "text/event-stream")
      ) {
        inFlight?.end();
        return response;
      }
      const { wallet, nativeFetch } = services;
      if (!mcpRequest) {
        if (method !== "GET") return response;
        const lastEventId = headers.get("last-event-id");
        const resume = lastEventId && sessions.takeResumption(url, sessionId, lastEventId);
        if (resume) return resume(response, signal);
        // A GET stream of a session the page initialized here, or where a paid retry was sent.
        const walletAnswersForms = sessions.walletAnswersForms(url, sessionId);
        if (walletAnswersForms === undefined && !sessions.retriedIn(url, sessionId))
          return response;
        const answer = (body: string) => postToSession(url, headers, init, body);
        return handleMcpStream(
          response,
          {
            server: url,
            walletAnswersForms: walletAnswersForms ?? false,
            answer,
            paidRetry: (id) => sessions.paidRetry(url, sessionId, id),
          },
          wallet,
          nativeFetch,
        );
      }
      if (declared) {
        const { walletAnswersForms } = declared;
        sessions.remember(url, response.headers.get("mcp-session-id"), walletAnswersForms);
      }
      const walletAnswersForms =
        declared?.walletAnswersForms ?? sessions.walletAnswersForms(url, sessionId) ?? false;
      return handleMcpResponse(
        response,
        {
          server: url,
          request: mcpRequest,
          replayable: call.replayable,
          walletAnswersForms,
          ...(inFlight
            ? { signal: inFlight.signal, ended: inFlight.end }
            : signal
              ? { signal }
              : {}),
          retryId: (pageId, paymentId) => sessions.retryIdFor({ ...client, id: pageId }, paymentId),
          awaitResumption: (eventId, resume) =>
            sessions.awaitResumption(url, sessionId, eventId, (resumed, resumedSignal) => {
              // The call is in flight again, given up by the resuming fetch's client.
              const again =
                mcpRequest.id === undefined
                  ? undefined
                  : sessions.callSignal({ ...client, signal: resumedSignal, id: mcpRequest.id });
              return resume(
                resumed,
                again ? { signal: again.signal, ended: again.end } : { signal: resumedSignal },
              );
            }),
        },
        wallet,
        nativeFetch,
      );
    },
  };
}

/**
 * Takes the page's `notifications/cancelled` of a call: the wallet gives it
 * up too (withdraws what it asks the person, never retries it). Of a call the
 * wallet paid and retried, the body the server must get instead: for the
 * retry (its own request id), the one still running. Undefined otherwise:
 * sent as the page wrote it.
 */
function cancellingCall(
  message: JsonRpcRequest,
  sessions: McpSessions,
  client: Omit<ClientRequest, "id">,
): string | undefined {
  if (message.method !== "notifications/cancelled") return undefined;
  const id = message.params?.requestId;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  const reason = message.params?.reason;
  sessions.cancel({ ...client, id }, typeof reason === "string" ? reason : "cancelled by the page");
  const retryId = sessions.retryOf({ ...client, id });
  if (retryId === undefined) return undefined;
  return JSON.stringify({ ...message, params: { ...message.params, requestId: retryId } });
}

/** An answer to the server on a GET stream: a JSON-RPC POST with the stream's own headers. */
function postToSession(
  url: string,
  streamHeaders: Headers,
  init: RequestInit | undefined,
  body: string,
): Request {
  const headers = new Headers(streamHeaders);
  headers.delete("last-event-id");
  headers.set("content-type", "application/json");
  headers.set("accept", "application/json, text/event-stream");
  return new Request(url, {
    method: "POST",
    headers,
    body,
    ...(init?.credentials ? { credentials: init.credentials } : {}),
    redirect: "manual",
  });
}
