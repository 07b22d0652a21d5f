import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { isResponseTo, type JsonRpcId, parseJson, readJsonRpcRequest } from "../hook/jsonrpc";
import { mediaType } from "../hook/media-type";
import { PAGE_LIMITS } from "../hook/wallet-link";
import { UpstreamAnswerError } from "./errors";

/**
 * The fetch under the proxy's MCP client, for a tools/call the server answers
 * with a 2xx that does not answer it, which the SDK's transport only fails on
 * with its own words: a JSON body that is no JSON-RPC answer to the call (seed
 * 004's `{"error":"payment_parse"}`, sent with 200) fails with a schema error
 * that says nothing of what the server said. It fails here with an
 * UpstreamAnswerError that does, which callPaying reports for a paid retry.
 */
export function answeringCalls(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const request = readJsonRpcRequest(init?.body);
    if (request?.method !== "tools/call" || request.id === undefined || !response.ok) {
      return response;
    }
    if (mediaType(response) === "application/json") return answeredInJson(response, request.id);
    return response;
  };
}

/** The JSON answer to call `id` as the transport reads it: all JSON-RPC, the call's answer in it. */
async function answeredInJson(response: Response, id: JsonRpcId): Promise<Response> {
  const text = await response.text();
  const body = parseJson(text);
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const answers =
    messages.every((message) => JSONRPCMessageSchema.safeParse(message).success) &&
    messages.some((message) => isResponseTo(message, id));
  const { status, statusText, headers } = response;
  if (!answers) {
    throw new UpstreamAnswerError(
      status,
      `HTTP ${status} with JSON that does not answer the call: ${text.slice(0, PAGE_LIMITS.challenge)}`,
    );
  }
  return new Response(text, { status, statusText, headers });
}
