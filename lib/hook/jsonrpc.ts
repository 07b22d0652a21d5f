/** The few JSON-RPC / MCP shapes the hook looks at, read without a schema library (the hook runs on every page). */

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id?: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

export const PAYMENT_REQUIRED = -32402;

type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value[key]` when `value` is an object; undefined for anything else. */
export function field(value: unknown, key: string): unknown {
  return isObject(value) ? value[key] : undefined;
}

/** A request body the page's MCP client sent, or undefined for anything else (cheap test first). */
export function readJsonRpcRequest(body: unknown): JsonRpcRequest | undefined {
  if (typeof body !== "string" || body.charCodeAt(0) !== 123 || !body.includes('"jsonrpc"')) {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(body);
    if (isObject(value) && value.jsonrpc === "2.0" && typeof value.method === "string") {
      return value as unknown as JsonRpcRequest;
    }
  } catch {
    // Not JSON: not ours to look at.
  }
  return undefined;
}

/** Parses an SSE data field or a JSON body; undefined when it is not JSON. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isResponseTo(message: unknown, id: JsonRpcId | undefined): message is Obj {
  return isObject(message) && id !== undefined && message.id === id && !("method" in message);
}

export function paymentErrorOf(message: Obj): JsonRpcError | undefined {
  const error = message.error;
  return isObject(error) && error.code === PAYMENT_REQUIRED
    ? (error as unknown as JsonRpcError)
    : undefined;
}

const X402_ERROR = "x402/error";

/**
 * An x402 MCP price: a tools/call result of `resultType: "payment_required"`,
 * or one with `isError` carrying a PaymentRequired object. An earlier draft
 * of x402's MCP transport sent a JSON-RPC error of code 402 whose `data` is
 * the PaymentRequired object: read as the `isError` result it became.
 */
export function x402PaymentResultOf(message: Obj): Obj | undefined {
  const { error } = message;
  if (
    isObject(error) &&
    error.code === 402 &&
    isObject(error.data) &&
    "x402Version" in error.data
  ) {
    return { isError: true, structuredContent: error.data };
  }
  const result = message.result;
  if (!isObject(result)) return undefined;
  if (result.resultType === "payment_required" && isObject(result.paymentRequired)) return result;
  if (result.isError !== true) return undefined;
  // Bare or in the x402/error wrapper (lib/protocol/x402/mcp.ts reads which).
  const { structuredContent, _meta } = result;
  if (
    isObject(structuredContent) &&
    ("x402Version" in structuredContent || X402_ERROR in structuredContent)
  )
    return result;
  if (isObject(_meta) && X402_ERROR in _meta) return result;
  const first = Array.isArray(result.content) ? result.content[0] : undefined;
  if (isObject(first) && typeof first.text === "string" && first.text.includes('"x402Version"')) {
    return result;
  }
  return undefined;
}

/** A server's `elicitation/create` request (answered with its id). */
export function isElicitation(message: unknown): message is JsonRpcRequest & { id: JsonRpcId } {
  return isObject(message) && message.method === "elicitation/create" && message.id !== undefined;
}
