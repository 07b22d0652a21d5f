import type { DescribedCall, ElicitResult, PaymentChallenge, ReceiptParams } from "../messages";
import { canonicalize, sha256Base64url } from "../protocol/canonical-json";
import {
  field,
  isElicitation,
  isObject,
  isResponseTo,
  type JsonRpcError,
  type JsonRpcId,
  type JsonRpcRequest,
  parseJson,
  paymentErrorOf,
  x402PaymentResultOf,
} from "./jsonrpc";
import { type PaidRetry, routeElicitation } from "./mcp-session";
import { mediaType } from "./media-type";
import { refusalKeptFromPage } from "./paid-retry";
import { readCapped } from "./read-capped";
import type { ReplayableRequest } from "./replay";
import { formatSseMessage, type SseEvent, SseSplitter } from "./sse";
import {
  MAX_CHALLENGE_BYTES,
  MAX_REPORTED_TOOLS,
  PAGE_LIMITS,
  type WalletLink,
} from "./wallet-link";

/** One JSON-RPC POST the page's MCP client made. */
export interface McpCall {
  server: string;
  request: JsonRpcRequest;
  replayable: ReplayableRequest;
  /** The wallet declared form elicitation for this session, so it answers every form itself. */
  walletAnswersForms: boolean;
  /** The page's, to give the call up: while the wallet asks, it withdraws the payment request. */
  signal?: AbortSignal;
  /** A request id of the session's own for the paid retry of the call (see McpSessions.retryIdFor). */
  retryId(pageId: JsonRpcId, paymentId: string): JsonRpcId;
  /** Called once the call's answer is handed on (a stream of it read to its end) or failed. */
  ended?(): void;
  /**
   * The call's stream ended unanswered after the event `eventId`: `resume`
   * goes on with it, given what gives the call up then, once the page's
   * client resumes the stream by GET (see McpSessions.awaitResumption).
   */
  awaitResumption?(eventId: string, resume: ResumeCall): void;
}

/** Goes on with a call on the stream its page's client resumed: the page's copy of `response`. */
export type ResumeCall = (
  response: Response,
  given: Pick<McpCall, "signal" | "ended">,
) => Promise<Response>;

/** An SSE stream of one MCP session, and how to send the server an answer on it. */
export interface McpStream {
  server: string;
  walletAnswersForms: boolean;
  /** The tools/call whose stream this is, when it is one: an elicited Quote must be for it. */
  call?: { tool: string; arguments: unknown };
  /** A POST of `body` (a JSON-RPC response) to the session's endpoint. */
  answer(body: string): Request;
  /** The page's call and payment a response under `id` answers, when `id` is a paid retry's (see McpSessions). */
  paidRetry?(id: unknown): PaidRetry | undefined;
}

type Emit = (text: string) => void;
/**
 * Handles one event of an SSE stream. `signal` is aborted when what the event
 * asks is given up while it is handled: the server cancelled its elicitation
 * (`notifications/cancelled`), or the page its call or the stream.
 */
type SseHandler = (
  message: unknown,
  event: SseEvent,
  emit: Emit,
  signal: AbortSignal,
) => Promise<void>;

/**
 * Looks at an MCP answer (JSON or SSE) on its way to the page: notes what an
 * `initialize` and a `tools/list` declare, and pays a `tools/call` refused
 * with -32402 (or an x402 PaymentRequired result) so the page only ever sees
 * the paid call's answer (an x402 server's refusal of the payment too, its
 * reason the page's to read) — or, on a decline or a Stipendex receiver's
 * refusal (envelope.md section 7), the original one.
 */
export async function handleMcpResponse(
  response: Response,
  call: McpCall,
  wallet: WalletLink,
  nativeFetch: typeof fetch,
): Promise<Response> {
  const { method } = call.request;
  if (method === "initialize" || method === "tools/list") observeAnswer(response, call, wallet);
  const isCall = method === "tools/call";
  const type = mediaType(response);
  if (isCall && type === "application/json") {
    try {
      const message = await readAnswer(response, call.request.id);
      return (message && (await payAndRetry(message, call, wallet, nativeFetch))) ?? response;
    } finally {
      call.ended?.();
    }
  }
  // Any request's stream may carry an elicitation; only a call's or a session's the wallet answers for are read.
  if (type !== "text/event-stream" || !response.body || !(isCall || call.walletAnswersForms)) {
    call.ended?.();
    return response;
  }
  const stream = streamOf(call);
  let settled = false;
  /** The id of the last event handed to the page, which its client resumes the stream from. */
  let lastEventId: string | undefined;
  return rewriteSse(
    response,
    async (message, event, emit, signal) => {
      if (await answeredByWallet(message, stream, wallet, nativeFetch, signal)) return;
      if (isCall && !settled && isResponseTo(message, call.request.id)) {
        settled = true;
        // The page reads the paid answer on this stream only: gone, the payment is given up with it.
        const given = call.signal ? AbortSignal.any([call.signal, signal]) : signal;
        const retry = await payAndRetry(message, { ...call, signal: given }, wallet, nativeFetch);
        if (retry) return spliceAnswer(retry, emit, call);
      }
      if (event.id) lastEventId = event.id;
      emit(event.raw);
    },
    call.signal,
    () => {
      // Closed before the answer (a server that polls): the answer, a price too, comes on the
      // stream the page's client resumes, which goes on as this one.
      if (isCall && !settled && lastEventId !== undefined) {
        call.awaitResumption?.(lastEventId, (resumed, given) =>
          handleMcpResponse(resumed, { ...call, ...given }, wallet, nativeFetch),
        );
      }
      call.ended?.();
    },
  );
}

/** The JSON-RPC response to `id` a JSON answer is, read from a clone; undefined for anything else. */
async function readAnswer(
  response: Response,
  id: JsonRpcId | undefined,
): Promise<Record<string, unknown> | undefined> {
  // A price is small: a longer answer is a result, handed on without reading it all.
  const message = parseJson(await readCapped(response.clone(), MAX_CHALLENGE_BYTES));
  return isResponseTo(message, id) ? message : undefined;
}

/**
 * Whether an HTTP 402 answering the page's tools/call is its JSON-RPC answer
 * carrying an MCP price (some servers send one with that status): a Stipendex
 * -32402, or an x402 price (an `isError` result, or the draft's error 402);
 * paid in `_meta` like one sent with 200, not as an HTTP price.
 */
export async function isMcpPriceAnswer(
  response: Response,
  request?: JsonRpcRequest,
): Promise<boolean> {
  if (request?.method !== "tools/call" || mediaType(response) !== "application/json") return false;
  const message = await readAnswer(response, request.id);
  return (
    message !== undefined &&
    (paymentErrorOf(message) !== undefined || x402PaymentResultOf(message) !== undefined)
  );
}

async function payAndRetry(
  message: Record<string, unknown>,
  call: McpCall,
  wallet: WalletLink,
  nativeFetch: typeof fetch,
): Promise<Response | undefined> {
  const error = paymentErrorOf(message);
  const x402Result = error ? undefined : x402PaymentResultOf(message);
  if (!error && !x402Result) return undefined;
  const params = call.request.params ?? {};
  call.signal?.throwIfAborted();
  let answer: Awaited<ReturnType<WalletLink["pay"]>>;
  try {
    answer = await wallet.pay(
      {
        transport: "mcp",
        server: call.server,
        tool: String(params.name),
        arguments: params.arguments,
        ...(error ? { error } : { result: x402Result }),
      },
      call.signal,
    );
  } catch {
    // Given up while the wallet asked: rejected as an aborted fetch is.
    if (call.signal?.aborted) throw call.signal.reason;
    return undefined;
  }
  if (!answer.meta || call.request.id === undefined) return undefined;
  const meta = isObject(params._meta) ? params._meta : {};
  const paymentId = answer.paymentId;
  const ids = { retry: call.retryId(call.request.id, paymentId), page: call.request.id };
  const body = JSON.stringify({
    ...call.request,
    id: ids.retry,
    params: { ...params, _meta: { ...meta, [answer.meta.key]: answer.meta.value } },
  });
  if (call.signal?.aborted) {
    // Given up once the wallet had signed (too late to withdraw): never sent, and history says so.
    wallet.receipt({ paymentId, status: 0, receipt: null, unanswered: "not-sent" });
    throw call.signal.reason;
  }
  let retry: Response;
  try {
    retry = await nativeFetch(call.replayable.replay({}, body));
  } catch (failure) {
    // No HTTP answer (given up, connection refused or reset): the server may have taken the paid call all the same.
    const unanswered = call.signal?.aborted ? "given-up" : "no-response";
    wallet.receipt({ paymentId, status: 0, receipt: null, unanswered });
    throw failure;
  }
  const keptFromPage = refusalKeptFromPage(answer);
  const type = mediaType(retry);
  if (type === "text/event-stream" && retry.ok && retry.body) {
    const original = keptFromPage ? message : undefined;
    return withReceiptWatch(retry, call, ids, paymentId, wallet, nativeFetch, original);
  }
  const retried =
    type === "application/json"
      ? await retry
          .clone()
          .json()
          .catch(() => undefined)
      : undefined;
  const report = isResponseTo(retried, ids.retry)
    ? answerReceipt(retried, paymentId, retry.status)
    : await unansweredReceipt(retry, paymentId);
  sendReceipt(wallet, report, retried);
  if (report.error && keptFromPage) {
    retry.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!isResponseTo(retried, ids.retry)) return retry;
  return jsonAnswer(retry, { ...retried, id: ids.page });
}

/** A paid retry's request id, and the page's call's. */
interface RetryIds {
  retry: JsonRpcId;
  page: JsonRpcId;
}

/** The retry's JSON answer as the page's call is answered: `message`, with the retry's status and headers. */
function jsonAnswer(retry: Response, message: Record<string, unknown>): Response {
  retry.body?.cancel().catch(() => undefined);
  const headers = new Headers(retry.headers);
  // The body is written anew: its length and encoding are no longer the server's.
  headers.delete("content-length");
  headers.delete("content-encoding");
  const copy = new Response(JSON.stringify(message), {
    status: retry.status,
    statusText: retry.statusText,
    headers,
  });
  // A constructed Response has an empty url; keep the real one for the page.
  Object.defineProperty(copy, "url", { value: retry.url });
  return copy;
}

/** An SSE event answering a paid retry, as the answer to the page's call: its own event id kept, for resuming. */
function underPageId(event: SseEvent, message: Record<string, unknown>, pageId: JsonRpcId): string {
  return formatSseMessage({ ...message, id: pageId }, event.id);
}

/**
 * What a paid retry without a JSON-RPC answer to the call says: no receipt.
 * A 402 is the server's refusal (seed 004: a 402 with `payment_parse`),
 * reported as the HTTP binding reports one, with what its body says. Anything
 * else is none, whatever its status or body: the server may have taken the
 * paid call, and whether it collected the payment the chain tells.
 */
async function unansweredReceipt(retry: Response, paymentId: string): Promise<ReceiptParams> {
  const report = { paymentId, status: retry.status, receipt: null };
  if (retry.status !== 402) return { ...report, unanswered: "not-an-answer" };
  const said = (await readCapped(retry.clone(), MAX_CHALLENGE_BYTES))?.trim();
  const message = said || `HTTP ${retry.status} ${retry.statusText}`.trim();
  return { ...report, error: { code: retry.status, message } };
}

/**
 * The paid retry answered by SSE: pass it through, its answer under the page's
 * id (a refusal too, unless `original` is to stand in for it), and report its
 * receipt (or, once it ends without the call's answer, that it brought none).
 * A stream the server closed before the answer (it polls) is resumed here, by
 * GET with its Last-Event-ID, as the SDK resumes its own: the wallet sent the
 * retry, and the page's client knows nothing of it.
 */
function withReceiptWatch(
  retry: Response,
  call: McpCall,
  ids: RetryIds,
  paymentId: string,
  wallet: WalletLink,
  nativeFetch: typeof fetch,
  original: Record<string, unknown> | undefined,
): Response {
  const stream = streamOf(call);
  let answered = false;
  /** A result came (to another request): the server answers on this stream, and is not resumed. */
  let resulted = false;
  const cursor: StreamCursor = {};
  const handle: SseHandler = async (message, event, emit, signal) => {
    follow(cursor, event);
    if (isObject(message) && "result" in message) resulted = true;
    if (await answeredByWallet(message, stream, wallet, nativeFetch, signal)) return;
    if (!answered && isResponseTo(message, ids.retry)) {
      answered = true;
      const report = answerReceipt(message, paymentId, retry.status);
      sendReceipt(wallet, report, message);
      emit(
        report.error && original
          ? formatSseMessage(original)
          : underPageId(event, message, ids.page),
      );
      return;
    }
    emit(event.raw);
  };
  return rewriteSse(
    retry,
    handle,
    call.signal,
    // Ended, broken off or given up without the call's answer: the server may have taken the call.
    async (emit, gone) => {
      const given = call.signal ? AbortSignal.any([call.signal, gone]) : gone;
      let failures = 0;
      const resumable = () =>
        !answered && !resulted && cursor.lastEventId !== undefined && !given.aborted;
      while (resumable() && failures < MAX_RESUMPTION_FAILURES) {
        const from = cursor.lastEventId;
        const resumed = await resumeStream(call, cursor, nativeFetch, given);
        if (resumed === "refused") break;
        if (resumed !== "failed") {
          const reader = resumed.getReader();
          await pumpSse(reader, async (message, event) => {
            await handle(message, event, emit, given);
            // Answered: the wallet, the only reader of a stream it resumed, lets it go.
            if (answered) await reader.cancel().catch(() => undefined);
          }).catch(() => undefined);
        }
        failures = cursor.lastEventId === from ? failures + 1 : 0;
      }
      if (answered) return;
      wallet.receipt({
        paymentId,
        status: retry.status,
        receipt: null,
        unanswered: "stream-ended",
      });
      // The page's call is answered all the same, saying the wallet paid: else it waits for nothing.
      const why = `HTTP ${retry.status} with an SSE stream that ended without answering the call`;
      const tool = String(call.request.params?.name);
      const error = paidButUnanswered(tool, call.server, why);
      emit(formatSseMessage({ jsonrpc: "2.0", id: ids.page, error }));
    },
  );
}

/** Where a stream was left: its last event's id, and the reconnection time it asked for. */
interface StreamCursor {
  lastEventId?: string;
  retryMs?: number;
}

function follow(cursor: StreamCursor, event: SseEvent): void {
  if (event.id) cursor.lastEventId = event.id;
  if (event.retry !== undefined) cursor.retryMs = event.retry;
}

/** The SDK's first reconnection delay, when the server set none. */
const RESUMPTION_DELAY_MS = 1_000;
/** The longest reconnection delay a server may ask of the wallet. */
const MAX_RESUMPTION_DELAY_MS = 30_000;
/** Resumptions in a row that may bring nothing new before the wallet stops resuming. */
const MAX_RESUMPTION_FAILURES = 2;

/**
 * Resumes a call's stream after `cursor`, once its server's reconnection time
 * has passed: the stream's body; "failed" (no answer, or not a stream: tried
 * again); "refused" (the server cannot resume it: a 4xx); or given up with `signal`.
 */
async function resumeStream(
  call: McpCall,
  cursor: StreamCursor,
  nativeFetch: typeof fetch,
  signal: AbortSignal,
): Promise<ReadableStream<Uint8Array> | "failed" | "refused"> {
  const delay = Math.min(cursor.retryMs ?? RESUMPTION_DELAY_MS, MAX_RESUMPTION_DELAY_MS);
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, delay);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
  if (signal.aborted) return "refused";
  // The call's own request, as a GET: its session, protocol revision and credentials.
  const sent = call.replayable.replay({});
  const headers = new Headers(sent.headers);
  headers.delete("content-type");
  headers.set("accept", "text/event-stream");
  headers.set("last-event-id", cursor.lastEventId ?? "");
  let response: Response;
  try {
    response = await nativeFetch(
      new Request(sent.url, {
        method: "GET",
        headers,
        credentials: sent.credentials,
        redirect: "manual",
        referrer: sent.referrer,
        referrerPolicy: sent.referrerPolicy,
        signal,
      }),
    );
  } catch {
    return signal.aborted ? "refused" : "failed";
  }
  if (response.ok && mediaType(response) === "text/event-stream" && response.body) {
    return response.body;
  }
  await response.body?.cancel().catch(() => undefined);
  return response.status >= 400 && response.status < 500 ? "refused" : "failed";
}

/**
 * Emits a paid retry's answer into the page's SSE stream: its events, or its
 * JSON answer to the call. A retry without that answer (an HTTP error, JSON
 * that is not it) is no refusal (a refusal is never spliced): the page's call
 * is answered with an error saying the wallet paid, never the price again,
 * which its client would pay a second time.
 */
async function spliceAnswer(retry: Response, emit: Emit, call: McpCall): Promise<void> {
  const type = mediaType(retry);
  if (type === "text/event-stream" && retry.body) {
    return pumpSse(retry.body.getReader(), async (_message, event) => emit(event.raw));
  }
  const id = call.request.id;
  let message: unknown;
  if (type === "application/json") message = await retry.json().catch(() => undefined);
  else await retry.body?.cancel();
  if (isResponseTo(message, id)) return emit(formatSseMessage(message));
  const status = `HTTP ${retry.status} ${retry.statusText}`.trim();
  const why =
    type === "application/json" ? `${status} with JSON that does not answer the call` : status;
  const tool = String(call.request.params?.name);
  emit(formatSseMessage({ jsonrpc: "2.0", id, error: paidButUnanswered(tool, call.server, why) }));
}

/** A paid call the server gave no answer (`why`), as the JSON-RPC error its caller gets: the wallet paid. */
export function paidButUnanswered(tool: string, server: string, why: string): JsonRpcError {
  return {
    code: INTERNAL_ERROR,
    message: `The Stipendex wallet paid for ${tool}, and the MCP server at ${server} gave no answer to the paid call: ${why}`,
  };
}

/** JSON-RPC's internal error. */
const INTERNAL_ERROR = -32603;

/**
 * Reports a paid call's receipt, with the hash of the result the page got
 * (the Receipt's `resultHash` is checked against it). Not awaited by the
 * page's answer; where the page cannot hash (no WebCrypto), without it.
 */
function sendReceipt(wallet: WalletLink, report: ReceiptParams, message: unknown): void {
  void withResultHash(report, message).then((hashed) => wallet.receipt(hashed));
}

/** `report` with the hash of the paid result's content, when there is one to hash (and WebCrypto to hash it). */
export async function withResultHash(
  report: ReceiptParams,
  message: unknown,
): Promise<ReceiptParams> {
  const content = report.error ? undefined : field(field(message, "result"), "content");
  if (content === undefined) return report;
  try {
    return { ...report, resultHash: await sha256Base64url(canonicalize(content)) };
  } catch {
    return report;
  }
}

/** What a paid retry's answer (a JSON-RPC response) says: its receipt, or the server's refusal. */
export function answerReceipt(
  message: Record<string, unknown>,
  paymentId: string,
  status: number,
): ReceiptParams {
  const error = paymentErrorOf(message);
  const refused = error ? undefined : x402PaymentResultOf(message);
  if (error || refused) {
    // The wallet reads the receiver's reason from what it sent (see payments/refusal.ts).
    const said = refused?.structuredContent ?? refused?.content;
    return {
      paymentId,
      status,
      receipt: null,
      error: error ?? {
        code: -32402,
        message: "Payment refused (x402)",
        ...(said === undefined ? {} : { data: said }),
      },
    };
  }
  if (isObject(message.error)) {
    // Not a refusal: the server may have taken the paid call, and the chain tells if it collected.
    const { code, message: said } = message.error;
    return {
      paymentId,
      status,
      receipt: null,
      unanswered: "error-answer",
      answerError: {
        code: Number.isInteger(code) ? (code as number) : 0,
        message: typeof said === "string" ? said.slice(0, PAGE_LIMITS.name) : "",
      },
    };
  }
  const result = isObject(message.result) ? message.result : {};
  const meta = isObject(result._meta) ? result._meta : {};
  return {
    paymentId,
    status,
    receipt: meta["stipendex/receipt"] ?? meta["x402/payment-response"] ?? null,
  };
}

/**
 * The HTTP binding's report of a paid tools/call, once the call's JSON-RPC
 * answer `message` is known: a refusal or an error answer, as answerReceipt
 * judges them. Its settle header stays the receipt beside an error answer:
 * the server settled, then failed the call (seed 004 settles before the tool runs).
 */
export function httpAnswerReceipt(
  report: ReceiptParams,
  message: Record<string, unknown>,
): ReceiptParams {
  const judged = answerReceipt(message, report.paymentId, report.status);
  return { ...report, ...judged, receipt: report.receipt ?? judged.receipt };
}

/**
 * Answers an `elicitation/create` on `stream` when it is the wallet's to
 * answer (see routeElicitation); false: pass it on to the page.
 */
async function answeredByWallet(
  message: unknown,
  stream: McpStream,
  wallet: WalletLink,
  nativeFetch: typeof fetch,
  signal: AbortSignal,
): Promise<boolean> {
  if (!isElicitation(message)) return false;
  const params = message.params ?? {};
  const route = routeElicitation(params, stream.walletAnswersForms);
  if (route === "page") return false;
  let result: ElicitResult = { action: "decline" };
  if (route === "wallet") {
    try {
      result = await wallet.elicit(
        { server: stream.server, params, ...(stream.call ? { call: stream.call } : {}) },
        signal,
      );
    } catch {
      result = { action: "cancel" };
    }
  }
  // Given up while the wallet asked (withdrawn there): a cancelled request is not answered.
  if (signal.aborted) return true;
  const body = JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
  try {
    const answer = await nativeFetch(stream.answer(body));
    await answer.body?.cancel();
  } catch {
    // The server went away: the elicitation is still not the page's to see.
  }
  return true;
}

/**
 * A POST stream's answers go back as replays of its request with the answer
 * as body; a tools/call's stream (the paid retry's too) is bound to the call.
 */
export function streamOf(
  call: Pick<McpCall, "server" | "request" | "replayable" | "walletAnswersForms">,
): McpStream {
  const described = toolCallOf(call.request);
  return {
    server: call.server,
    walletAnswersForms: call.walletAnswersForms,
    answer: (body) => call.replayable.replay({}, body),
    ...(described ? { call: described } : {}),
  };
}

/** A tools/call request's tool and arguments (`{}` when it sent none, as argsHash counts them). */
export function toolCallOf(request: JsonRpcRequest): Required<DescribedCall> | undefined {
  const { method, params } = request;
  return method === "tools/call" && typeof params?.name === "string"
    ? { tool: params.name, arguments: params.arguments ?? {} }
    : undefined;
}

/**
 * The most of a described call's arguments, as JSON, passed on to the wallet:
 * far more than the window shows, and well within what one message may carry
 * (the desktop proxy's to the browser: 1 MB).
 */
export const DESCRIBED_ARGUMENTS_CHARS = 64 * 1024;

/**
 * An HTTP price with the tools/call its POST carries (seed 004), for the
 * window to say what the call is (its arguments left out when longer than
 * DESCRIBED_ARGUMENTS_CHARS); anything else as it is.
 */
export function withCall(
  challenge: PaymentChallenge,
  call: DescribedCall | undefined,
): PaymentChallenge {
  if (!call || challenge.transport !== "http") return challenge;
  const fits = JSON.stringify(call.arguments ?? {}).length <= DESCRIBED_ARGUMENTS_CHARS;
  return { ...challenge, call: fits ? call : { tool: call.tool } };
}

/**
 * A stream the page opened with GET on a session it initialized here (the
 * server's standalone stream), or the answer to a call paid the HTTP way:
 * elicitations the wallet answers are taken out, everything else passes
 * through in order. `call`: the page's call it answers, to give it up, shown
 * each message (`seen`), and told when the stream is done with.
 */
export function handleMcpStream(
  response: Response,
  stream: McpStream,
  wallet: WalletLink,
  nativeFetch: typeof fetch,
  call: Pick<McpCall, "signal"> & {
    seen?(message: unknown): void;
    /** `lastEventId`: the last event's id handed to the page, which its client resumes from. */
    ended?(lastEventId?: string): void;
  } = {},
): Response {
  if (mediaType(response) !== "text/event-stream" || !response.body) {
    call.ended?.();
    return response;
  }
  let lastEventId: string | undefined;
  const ended = () => call.ended?.(lastEventId);
  return rewriteSse(
    response,
    async (message, event, emit, signal) => {
      call.seen?.(message);
      if (await answeredByWallet(message, stream, wallet, nativeFetch, signal)) return;
      // Every event the wallet does not take out is handed on, under its own id.
      if (event.id) lastEventId = event.id;
      if (isObject(message) && !("method" in message)) {
        // A paid retry's answer replayed here (its POST stream resumed by GET): the page's call's,
        // and its receipt the wallet's to file (its own stream ended without it).
        const retry = stream.paidRetry?.(message.id);
        if (retry !== undefined) {
          sendReceipt(wallet, answerReceipt(message, retry.paymentId, response.status), message);
          return emit(underPageId(event, message, retry.pageId));
        }
      }
      emit(event.raw);
    },
    call.signal,
    ended,
  );
}

/**
 * Reads the answer to an `initialize` or `tools/list` from a clone and passes
 * on what it declares, unread: the wallet reads and bounds it.
 */
function observeAnswer(response: Response, call: McpCall, wallet: WalletLink): void {
  const report = (message: unknown) => {
    if (!isResponseTo(message, call.request.id) || !isObject(message.result)) return;
    const { capabilities, tools } = message.result;
    if (call.request.method === "initialize") {
      const declared = field(field(capabilities, "experimental"), "stipendex/payments");
      if (declared !== undefined) {
        wallet.reportMcpServer({ server: call.server, stipendexPayments: declared });
      }
      return;
    }
    wallet.reportMcpServer({
      server: call.server,
      tools: (Array.isArray(tools) ? tools.slice(0, MAX_REPORTED_TOOLS) : []).map((tool) => ({
        name: field(tool, "name"),
        pricing: field(field(tool, "_meta"), "stipendex/pricing"),
      })),
    });
  };
  const copy = response.clone();
  const type = mediaType(copy);
  if (type === "application/json") {
    copy.json().then(report, () => undefined);
  } else if (type === "text/event-stream" && copy.body) {
    pumpSse(copy.body.getReader(), async (message) => report(message)).catch(() => undefined);
  } else {
    copy.body?.cancel().catch(() => undefined);
  }
}

/**
 * A copy of `response` whose SSE body goes through `handle`, event by event,
 * in order. Events are read on while one is handled, so the server's
 * cancellation of an elicitation being handled aborts its handler's signal,
 * as do the page cancelling the body and `given` (the page's call) aborting;
 * any other event's handler is given up once the stream is gone (its reading
 * failed, or the page cancelled its copy): what it would emit, nobody reads.
 * `ended` is called once the body is done with: read to its end, broken off,
 * or cancelled by the page (then with `gone` aborted); what it emits, until
 * it settles, ends the page's copy.
 */
export function rewriteSse(
  response: Response,
  handle: SseHandler,
  given?: AbortSignal,
  ended?: (emit: Emit, gone: AbortSignal) => void | Promise<void>,
): Response {
  if (!response.body) return response;
  // Read here, so the page's cancel reaches the server's stream through the reader that holds it.
  const source = response.body.getReader();
  const encoder = new TextEncoder();
  let cancelled = false;
  const gone = new AbortController();
  /** The server's elicitations read and not yet handled, by id: what may be given up. */
  const open = new Map<JsonRpcId, AbortController>();
  const giveUp = (reason: unknown) => {
    for (const controller of open.values()) controller.abort(reason);
  };
  given?.addEventListener("abort", () => giveUp(given.reason), { once: true });
  const read = (message: unknown) => {
    if (isElicitation(message)) open.set(message.id, new AbortController());
    const cancelledId = cancelledRequestOf(message);
    if (cancelledId !== undefined) open.get(cancelledId)?.abort("cancelled by the server");
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const emit: Emit = (text) => {
        if (!cancelled) controller.enqueue(encoder.encode(text));
      };
      const handleOne = async (message: unknown, event: SseEvent) => {
        const id = isElicitation(message) ? message.id : undefined;
        const signal = (id === undefined ? gone.signal : open.get(id)?.signal) ?? NEVER_ABORTED;
        try {
          await handle(message, event, emit, signal);
        } finally {
          if (id !== undefined) open.delete(id);
        }
      };
      const end = async () => {
        try {
          await ended?.(emit, gone.signal);
        } catch {
          // What it would have added, the page does without.
        }
      };
      pumpSse(source, handleOne, read).then(
        async () => {
          await end();
          if (!cancelled) controller.close();
        },
        async (error: unknown) => {
          // Broken off: gone before `ended` (nothing it starts is read); the page sees the failure.
          gone.abort(error);
          await end();
          if (!cancelled) controller.error(error);
        },
      );
    },
    cancel(reason) {
      cancelled = true;
      gone.abort(reason);
      giveUp(reason);
      return source.cancel(reason);
    },
  });
  const copy = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A constructed Response has an empty url; keep the real one for the page.
  Object.defineProperty(copy, "url", { value: response.url });
  return copy;
}

/** Never aborted: the signal of an event nothing can give up. */
const NEVER_ABORTED = new AbortController().signal;

/** The id of the request a `notifications/cancelled` gives up, if `message` is one. */
function cancelledRequestOf(message: unknown): JsonRpcId | undefined {
  if (!isObject(message) || message.method !== "notifications/cancelled") return undefined;
  const id = field(message.params, "requestId");
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/**
 * Reads a body event by event: `onRead` sees each as soon as it is read,
 * `onEvent` handles them one after another, in order (reading goes on
 * meanwhile). Settles once all are handled; a handler that fails stops it.
 */
async function pumpSse(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  onEvent: (message: unknown, event: SseEvent) => Promise<void>,
  onRead?: (message: unknown) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  const splitter = new SseSplitter();
  let handled = Promise.resolve();
  const take = (event: SseEvent) => {
    const message = parseJson(event.data);
    onRead?.(message);
    handled = handled.then(() => onEvent(message, event));
    // A failed handler ends the reading too: the failure is what the stream ends with.
    handled.catch(() => reader.cancel().catch(() => undefined));
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const event of splitter.push(decoder.decode(value, { stream: true }))) take(event);
  }
  const rest = splitter.flush();
  if (rest) take(rest);
  await handled;
}
