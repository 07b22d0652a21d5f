import {
  isElicitation,
  isObject,
  type JsonRpcId,
  parseJson,
  readJsonRpcRequest,
} from "../hook/jsonrpc";
import { mediaType } from "../hook/media-type";
import { SseSplitter } from "../hook/sse";
import type { ElicitParams } from "../messages";

type CallInFlight = NonNullable<ElicitParams["call"]>;

/**
 * Which tools/call each of the server's elicitations came with. Streamable
 * HTTP sends one that belongs to a call on that call's SSE answer; the SDK's
 * client does not say which, so `fetch` (the transport's) reads each call's
 * SSE answer on the side as it passes it on, byte for byte.
 */
export class CallStreams {
  private readonly calls = new Map<JsonRpcId, CallInFlight>();

  constructor(private readonly base: typeof fetch = fetch) {}

  readonly fetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await this.base(input, init);
    const sent = readJsonRpcRequest(init?.body);
    const params = sent?.method === "tools/call" ? sent.params : undefined;
    if (!isObject(params) || typeof params.name !== "string") return response;
    if (mediaType(response) !== "text/event-stream" || !response.body) return response;
    const call = { tool: params.name, arguments: params.arguments ?? {} };
    const { status, statusText, headers } = response;
    return new Response(response.body.pipeThrough(this.noting(call)), {
      status,
      statusText,
      headers,
    });
  };

  /** The call whose answer carried the server's elicitation `id`, if one did (asked once). */
  callOf(id: JsonRpcId): CallInFlight | undefined {
    const call = this.calls.get(id);
    this.calls.delete(id);
    return call;
  }

  /** Passes a call's SSE answer on unchanged, noting the elicitations in it. */
  private noting(call: CallInFlight): TransformStream<Uint8Array, Uint8Array> {
    const splitter = new SseSplitter();
    const decoder = new TextDecoder();
    const noted: JsonRpcId[] = [];
    const note = (data: string | undefined) => {
      const message = parseJson(data);
      if (!isElicitation(message)) return;
      noted.push(message.id);
      this.calls.set(message.id, call);
    };
    return new TransformStream({
      // Noted before it is passed on: the client reads the elicitation only after this.
      transform: (chunk, controller) => {
        for (const event of splitter.push(decoder.decode(chunk, { stream: true }))) {
          note(event.data);
        }
        controller.enqueue(chunk);
      },
      // One nobody asked about is not kept past its call.
      flush: () => {
        note(splitter.flush()?.data);
        for (const id of noted) this.calls.delete(id);
      },
    });
  }
}
