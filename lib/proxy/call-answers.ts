import { ErrorCode, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  field,
  isResponseTo,
  type JsonRpcError,
  type JsonRpcId,
  parseJson,
  readJsonRpcRequest,
} from "../hook/jsonrpc";
import { mediaType } from "../hook/media-type";
import { formatSseMessage, SseSplitter } from "../hook/sse";
import { PAGE_LIMITS } from "../hook/wallet-link";
import { failureText, UpstreamAnswerError } from "./errors";

/** Marks the error the proxy answers a call with when the server's SSE answer left it unanswered. */
const NO_ANSWER = "stipendex-proxy/no-answer";

/**
 * The fetch under the proxy's MCP client, for a tools/call the server answers
 * with a 2xx that does not answer it, which the SDK's transport fails on with
 * its own words or not at all: a JSON body that is no JSON-RPC answer to the
 * call (seed 004's `{"error":"payment_parse"}`, sent with 200) fails with a
 * schema error that says nothing of what the server said, and an SSE answer
 * that ends or breaks off without the call's answer, or a 202 Accepted,
 * leaves the call waiting (until the proxy's timeout, 30 minutes). All fail
 * here at once with an UpstreamAnswerError, which callPaying reports for a
 * paid retry: thrown, or for SSE sent as the proxy's JSON-RPC error to the
 * call, which `noAnswerIn` reads back.
 */
export function answeringCalls(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const request = readJsonRpcRequest(init?.body);
    if (request?.method !== "tools/call" || request.id === undefined) return response;
    return answerToCall(response, request.id);
  };
}

/** `response` to tools/call `id`, as answeringCalls hands it on (or fails on it). */
export async function answerToCall(response: Response, id: JsonRpcId): Promise<Response> {
  if (!response.ok) return response;
  if (response.status === 202) {
    // What answers a notification: the transport would wait for the call's answer.
    await response.body?.cancel();
    throw new UpstreamAnswerError(202, "HTTP 202 without answering the call");
  }
  const type = mediaType(response);
  if (type === "application/json") return answeredInJson(response, id);
  if (type === "text/event-stream" && response.body) {
    return answeredInSse(response, response.body, id);
  }
  return response;
}

/** The JSON answer to call `id` as the transport reads it: all JSON-RPC, the call's answer in it. */
async function answeredInJson(response: Response, id: JsonRpcId): Promise<Response> {
  const text = await response.text();
  const body = parseJson(text);
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const answers =
    messages.every(isJsonRpc) && messages.some((message) => isResponseTo(message, id));
  const { status, statusText, headers } = response;
  if (!answers) {
    throw new UpstreamAnswerError(
      status,
      `HTTP ${status} with JSON that does not answer the call: ${text.slice(0, PAGE_LIMITS.challenge)}`,
    );
  }
  return new Response(text, { status, statusText, headers });
}

/**
 * The SSE answer to call `id`, passed on as it comes. When it ends or breaks
 * off without the call's answer, it ends with the proxy's JSON-RPC error to
 * the call instead, unless an event had an id: the SDK then resumes the stream
 * (MCP's resumability), where the answer may still come.
 */
function answeredInSse(
  response: Response,
  body: ReadableStream<Uint8Array>,
  id: JsonRpcId,
): Response {
  const reader = body.getReader();
  const splitter = new SseSplitter();
  const decoder = new TextDecoder();
  const { status, statusText, headers } = response;
  let answered = false;
  let resumable = false;
  const note = (text: string) => {
    for (const event of splitter.push(text)) {
      // As the SDK reads them: events without data are none, only `message` ones carry answers.
      if (event.data === undefined) continue;
      if (event.id) resumable = true;
      const message = parseJson(event.data);
      const carries = !event.event || event.event === "message";
      if (carries && isJsonRpc(message) && isResponseTo(message, id)) answered = true;
    }
  };
  const noAnswer = (why: string) => {
    const message = `HTTP ${status} with an SSE stream that ${why}`;
    const error = { code: ErrorCode.InternalError, message, data: { [NO_ANSWER]: status } };
    // After a blank line: the stream may have stopped in the middle of an event.
    return new TextEncoder().encode(`\n\n${formatSseMessage({ jsonrpc: "2.0", id, error })}`);
  };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        if (answered || resumable) return controller.error(error);
        controller.enqueue(noAnswer(`broke off before answering the call: ${failureText(error)}`));
        return controller.close();
      }
      if (read.done) {
        if (!answered && !resumable) {
          controller.enqueue(noAnswer("ended without answering the call"));
        }
        return controller.close();
      }
      note(decoder.decode(read.value, { stream: true }));
      controller.enqueue(read.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(stream, { status, statusText, headers });
}

/** The failure the proxy's error to a call stands for, when `error` is one (see answeredInSse). */
export function noAnswerIn(error: JsonRpcError): UpstreamAnswerError | undefined {
  const status = field(error.data, NO_ANSWER);
  return typeof status === "number"
    ? new UpstreamAnswerError(status, error.message, { streamEnded: true })
    : undefined;
}

/** A message as the SDK's transport takes it. */
function isJsonRpc(message: unknown): boolean {
  return JSONRPCMessageSchema.safeParse(message).success;
}
