import { ErrorCode, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  field,
  isObject,
  isResponseTo,
  type JsonRpcError,
  type JsonRpcId,
  parseJson,
  readJsonRpcRequest,
} from "../hook/jsonrpc";
import { mediaType } from "../hook/media-type";
import { formatSseMessage, type SseEvent, SseSplitter } from "../hook/sse";
import { PAGE_LIMITS } from "../hook/wallet-link";
import { failureText, PaidRetryError, UpstreamAnswerError } from "./errors";

/** Marks the error the proxy answers a call with when the server's SSE answer left it unanswered. */
const NO_ANSWER = "stipendex-proxy/no-answer";
/** Beside NO_ANSWER: the payment the unanswered call was a paid retry of. */
const PAID_BY = "stipendex-proxy/paid-by";

/**
 * A paid retry's answer (http-402.ts), watched for what it came to: `settled`
 * is told once, with the call's answer when it is in it (to judge an error
 * answer), or with the failure when its SSE stream ends, breaks off or is
 * given up without it.
 */
export interface PaidAnswer {
  paymentId: string;
  settled(outcome: PaidOutcome): void;
}

/** What a paid retry's answer came to: the call's JSON-RPC answer, or none. */
export type PaidOutcome = { answer: Record<string, unknown> } | { failure: UpstreamAnswerError };

/** A call whose SSE answer ended without it, resumable: what its resumption must still bring. */
interface Resumable {
  id: JsonRpcId;
  /** The HTTP status of the call's answer, which the proxy's error to the call names. */
  status: number;
  /** Why the stream it resumes stopped. */
  why: string;
  paid?: PaidAnswer;
  /** Redirects its resumption was answered with so far (the SDK follows them: at most 5). */
  redirects?: number;
  /** Resumptions of it that failed so far, each of which the SDK tried again. */
  failures?: number;
}

/**
 * The calls whose SSE answer stopped without the call's answer after an event
 * with an id, by that id: the SDK resumes such a stream by GET with
 * Last-Event-ID (MCP's resumability), where the answer may still come. One
 * stream is resumed until it is answered; a resumption that fails is tried
 * again as often as the SDK tries it, and one that fails for good, or ends
 * without the answer and cannot be resumed in turn, fails the call, and a paid one's
 * receipt is filed when the answer comes or does not. Calls whose streams
 * stopped at the same id (a server numbering each stream from 1) are kept
 * apart, and resumed in the order they stopped.
 */
export class Resumptions {
  private readonly waiting = new Map<string, Resumable[]>();
  private ended = false;

  /**
   * `call` waits for the GET resuming after `eventId` (the same call's paid retry's
   * watch kept); false, and nothing kept, once the session has ended.
   */
  wait(eventId: string, call: Resumable): boolean {
    if (this.ended) return false;
    const calls = this.waiting.get(eventId) ?? [];
    const same = calls.find((known) => known.id === call.id);
    if (same) same.paid = call.paid ?? same.paid;
    else calls.push(call);
    this.waiting.set(eventId, calls);
    return true;
  }

  /** The call a GET with this Last-Event-ID resumes, if one waits for it (taken: once). */
  take(eventId: string | null): Resumable | undefined {
    if (eventId === null) return undefined;
    const calls = this.waiting.get(eventId);
    const call = calls?.shift();
    if (calls?.length === 0) this.waiting.delete(eventId);
    return call;
  }

  /**
   * The session ended: no call waits for its resumption, a paid one's receipt is
   * filed, and a stream ending later is not left to one either.
   */
  giveUp(): void {
    this.ended = true;
    for (const call of [...this.waiting.values()].flat()) {
      call.paid?.settled({ failure: streamFailure(call, "was never resumed") });
    }
    this.waiting.clear();
  }
}

function streamFailure(
  call: Pick<Resumable, "status" | "why">,
  more?: string,
): UpstreamAnswerError {
  const message = `HTTP ${call.status} with an SSE stream that ${call.why}${more ? `, and ${more}` : ""}`;
  return new UpstreamAnswerError(call.status, message, { streamEnded: true });
}

/**
 * The proxy's JSON-RPC error to a call its answer left unanswered (`failure`),
 * as an SSE event: what the SDK's transport reads as the call's answer (see
 * noAnswerIn). After a blank line: a stream may have stopped inside an event.
 */
function noAnswerEvent(
  id: JsonRpcId,
  failure: UpstreamAnswerError,
  paid?: PaidAnswer,
): Uint8Array<ArrayBuffer> {
  const paidBy = paid ? { [PAID_BY]: paid.paymentId } : {};
  const data = { [NO_ANSWER]: failure.status, ...paidBy };
  const error = { code: ErrorCode.InternalError, message: failure.message, data };
  return new TextEncoder().encode(`\n\n${formatSseMessage({ jsonrpc: "2.0", id, error })}`);
}

/**
 * The fetch under the proxy's MCP client, for a tools/call the server answers
 * with a 2xx that does not answer it, which the SDK's transport fails on with
 * its own words or not at all: a JSON body that is no JSON-RPC answer to the
 * call (seed 004's `{"error":"payment_parse"}`, sent with 200) fails with a
 * schema error that says nothing of what the server said, and an SSE answer
 * that ends or breaks off without the call's answer, or a 202 Accepted,
 * leaves the call waiting (until the proxy's timeout, 30 minutes), as does
 * the resumption by GET of one that had event ids, when it fails (a server
 * without a GET stream answers 405). All fail here at once with an
 * UpstreamAnswerError, which callPaying reports for a paid retry: thrown, or
 * for SSE sent as the proxy's JSON-RPC error to the call, which `noAnswerIn`
 * reads back.
 */
export function answeringCalls(base: typeof fetch, resumptions: Resumptions): typeof fetch {
  return async (input, init) => {
    const eventId = new Headers(init?.headers).get("last-event-id");
    const resumed = resumptions.take(eventId);
    if (eventId !== null && resumed) {
      const answer = await resumption(base, input, init);
      if (!(answer instanceof Response)) {
        // The SDK tries a failed resumption again, after the same event, while it has attempts.
        const failures = (resumed.failures ?? 0) + 1;
        const again = answer.triedAgain;
        if (again && failures < SDK_RESUMPTION_ATTEMPTS) {
          if (resumptions.wait(eventId, { ...resumed, failures })) return again();
        }
        return resumedAnswer(answer.why, resumed, resumptions);
      }
      // The SDK follows it within the origin, asking again after the same event.
      if (!answer.ok) {
        const redirects = (resumed.redirects ?? 0) + 1;
        if (redirects <= MAX_REDIRECTS && resumptions.wait(eventId, { ...resumed, redirects })) {
          return answer;
        }
        await answer.body?.cancel().catch(() => undefined);
        return resumedAnswer("its resumption was redirected too often", resumed, resumptions);
      }
      return resumedAnswer(answer, resumed, resumptions);
    }
    const response = await base(input, init);
    const request = readJsonRpcRequest(init?.body);
    if (request?.method !== "tools/call" || request.id === undefined) return response;
    return answerToCall(response, request.id, undefined, resumptions);
  };
}

/** How many redirects the SDK's transport follows in a row. */
const MAX_REDIRECTS = 5;
/**
 * How many times the SDK's transport tries to resume a stream (its default
 * `maxRetries`, which forward.ts keeps), a failed attempt (no answer, or an
 * HTTP error but 405) being tried again after its backoff.
 */
const SDK_RESUMPTION_ATTEMPTS = 2;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Whether the SDK's transport follows `response` to a GET of `url` itself: a
 * redirect within its origin (or to its https form) that adds no credentials,
 * as MCP's SDK allows.
 */
function followedBySdk(response: Response, url: string): boolean {
  const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
  if (!location || !URL.canParse(location, url)) return false;
  const [from, to] = [new URL(url), new URL(location, url)];
  const addsCredentials =
    (to.username || to.password) &&
    (to.username !== from.username || to.password !== from.password);
  if (addsCredentials || from.hostname !== to.hostname) return false;
  const same = from.protocol === to.protocol && from.port === to.port;
  const upgrade = from.protocol === "http:" && to.protocol === "https:" && !from.port && !to.port;
  return same || upgrade;
}

/** A resumption that brought no stream: why, and what the SDK would try again after. */
interface FailedResumption {
  why: string;
  /** The failure as the SDK's transport sees it, when that has it try again. */
  triedAgain?: () => Promise<Response>;
}

/**
 * The server's answer to a GET resuming a call's stream: its SSE, a redirect
 * the SDK follows, or why there is none.
 */
async function resumption(
  base: typeof fetch,
  input: Parameters<typeof fetch>[0],
  init: RequestInit | undefined,
): Promise<Response | FailedResumption> {
  let response: Response;
  try {
    response = await base(input, init);
  } catch (error) {
    return {
      why: `its resumption failed: ${failureText(error)}`,
      triedAgain: () => Promise.reject(error),
    };
  }
  if (response.ok && mediaType(response) === "text/event-stream" && response.body) return response;
  const url = input instanceof Request ? input.url : String(input);
  if (followedBySdk(response, url)) return response;
  await response.body?.cancel().catch(() => undefined);
  const { status, statusText } = response;
  const what = response.ok ? `${mediaType(response) || "no content type"}` : statusText;
  const why = `its resumption was answered HTTP ${status} ${what}`.trim();
  // 405 says there is no stream to resume: the SDK does not ask again.
  if (response.ok || status === 405) return { why };
  return { why, triedAgain: async () => new Response(null, { status, statusText }) };
}

/**
 * A resumed stream, watched for the call's answer as its first stream was; or,
 * when it could not be resumed, an SSE stream holding only the proxy's error
 * to the call, which the SDK's transport takes as the call's answer.
 */
function resumedAnswer(
  answer: Response | string,
  call: Resumable,
  resumptions: Resumptions,
): Response {
  if (typeof answer !== "string" && answer.body) {
    return answeredInSse(answer, answer.body, call.id, call.paid, resumptions);
  }
  const failure = streamFailure(call, typeof answer === "string" ? answer : undefined);
  call.paid?.settled({ failure });
  return new Response(noAnswerEvent(call.id, failure, call.paid), {
    status: 200,
    headers: { "content-type": "text/event-stream" },
  });
}

/**
 * `response` to tools/call `id`, as answeringCalls hands it on (or fails on
 * it). A `paid` retry's is watched (see PaidAnswer), and fails on any 2xx
 * that cannot answer the call: the SDK's words for that would not say the
 * wallet paid.
 */
export async function answerToCall(
  response: Response,
  id: JsonRpcId,
  paid: PaidAnswer | undefined,
  resumptions: Resumptions,
): Promise<Response> {
  if (!response.ok) return response;
  if (response.status === 202) {
    // What answers a notification: the transport would wait for the call's answer.
    await response.body?.cancel();
    throw new UpstreamAnswerError(202, "HTTP 202 without answering the call");
  }
  const type = mediaType(response);
  if (type === "application/json") {
    const { answer, message } = await answeredInJson(response, id);
    paid?.settled({ answer: message });
    return answer;
  }
  if (type === "text/event-stream" && response.body) {
    return answeredInSse(response, response.body, id, paid, resumptions);
  }
  if (!paid) return response;
  await response.body?.cancel();
  const { status } = response;
  const what = type || "no content type";
  throw new UpstreamAnswerError(
    status,
    `HTTP ${status} with ${what}, which does not answer the call`,
  );
}

/**
 * The JSON answer to call `id` as the transport reads it (all JSON-RPC, the
 * call's answer in it), and that answer.
 */
async function answeredInJson(
  response: Response,
  id: JsonRpcId,
): Promise<{ answer: Response; message: Record<string, unknown> }> {
  const text = await response.text();
  const body = parseJson(text);
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const message = messages.find((one) => isResponseTo(one, id));
  const { status, statusText, headers } = response;
  if (!(messages.every(isJsonRpc) && isObject(message))) {
    throw new UpstreamAnswerError(
      status,
      `HTTP ${status} with JSON that does not answer the call: ${text.slice(0, PAGE_LIMITS.challenge)}`,
    );
  }
  return { answer: new Response(text, { status, statusText, headers }), message };
}

/**
 * The SSE answer to call `id`, passed on as it comes. When it ends or breaks
 * off without the call's answer, it ends with the proxy's JSON-RPC error to
 * the call instead (naming the payment of a `paid` retry), unless an event
 * had an id: the SDK then resumes the stream by GET with Last-Event-ID (MCP's
 * resumability), where the answer may still come (`resumptions`).
 */
function answeredInSse(
  response: Response,
  body: ReadableStream<Uint8Array>,
  id: JsonRpcId,
  paid: PaidAnswer | undefined,
  resumptions: Resumptions,
): Response {
  const reader = body.getReader();
  const splitter = new SseSplitter();
  const decoder = new TextDecoder();
  const { status, statusText, headers } = response;
  let answered = false;
  /** The id of the last event that had one: the SDK resumes after it. */
  let lastEventId: string | undefined;
  /** A result came on it (the call's or another's): the SDK does not resume it then. */
  let resulted = false;
  /** The bytes so far ended in CR: the SDK's parser waits to see whether LF follows. */
  let endsInCr = false;
  let settled = false;
  const settle = (outcome: PaidOutcome) => {
    if (settled) return;
    settled = true;
    paid?.settled(outcome);
  };
  /** One event, as the SDK's transport reads it. */
  const noteEvent = (event: SseEvent) => {
    // Events without data are none, only `message` ones carry answers.
    if (event.data === undefined) return;
    if (event.id) lastEventId = event.id;
    const message = parseJson(event.data);
    if ((event.event && event.event !== "message") || !isJsonRpc(message)) return;
    if (isObject(message) && "result" in message) resulted = true;
    if (isResponseTo(message, id)) {
      answered = true;
      settle({ answer: message });
    }
  };
  const note = (text: string) => {
    for (const event of splitter.push(text)) noteEvent(event);
  };
  /**
   * The stream's end without the call's answer (`why`): told to the SDK, and settled, unless
   * the SDK resumes it (`resumes`: not when the session is gone), and its resumption will.
   */
  const unanswered = (why: string, resumes = true) => {
    const after = resumes && !resulted ? lastEventId : undefined;
    if (
      after !== undefined &&
      resumptions.wait(after, { id, status, why, ...(paid ? { paid } : {}) })
    ) {
      // Settled once the resumption brings the answer or does not: resumedAnswer.
      settled = true;
      return undefined;
    }
    const failure = streamFailure({ status, why });
    settle({ failure });
    return noAnswerEvent(id, failure, paid);
  };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        const told =
          !answered && unanswered(`broke off before answering the call: ${failureText(error)}`);
        if (!told) return controller.error(error);
        controller.enqueue(told);
        return controller.close();
      }
      if (read.done) {
        const tail = splitter.flush();
        if (tail) {
          // Ended inside an event: ended here, so that the SDK reads the event the proxy read.
          noteEvent(tail);
          controller.enqueue(new TextEncoder().encode("\n\n"));
        } else if (endsInCr) {
          // An event ended by CR alone: the SDK's parser dispatches it only once LF follows.
          controller.enqueue(new TextEncoder().encode("\n"));
        }
        const told = !answered && unanswered("ended without answering the call");
        if (told) controller.enqueue(told);
        return controller.close();
      }
      const text = decoder.decode(read.value, { stream: true });
      if (text !== "") endsInCr = text.endsWith("\r");
      note(text);
      controller.enqueue(read.value);
    },
    cancel: (reason) => {
      // Given up (the session closed) before the answer came: the paid call is left unanswered.
      if (!answered) unanswered("was given up before answering the call", false);
      return reader.cancel(reason);
    },
  });
  return new Response(stream, { status, statusText, headers });
}

/**
 * The failure the proxy's error to a call stands for, when `error` is one (see
 * answeredInSse): a PaidRetryError when the call was a paid retry, so the host
 * is told the wallet paid.
 */
export function noAnswerIn(error: JsonRpcError): UpstreamAnswerError | PaidRetryError | undefined {
  const status = field(error.data, NO_ANSWER);
  if (typeof status !== "number") return undefined;
  const failure = new UpstreamAnswerError(status, error.message, { streamEnded: true });
  const paymentId = field(error.data, PAID_BY);
  if (typeof paymentId !== "string") return failure;
  return new PaidRetryError(paymentId, undefined, error.message, { cause: failure });
}

/** A message as the SDK's transport takes it. */
function isJsonRpc(message: unknown): boolean {
  return JSONRPCMessageSchema.safeParse(message).success;
}
