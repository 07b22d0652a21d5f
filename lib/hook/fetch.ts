import { payHttp402 } from "./http-payment";
import { readJsonRpcRequest } from "./jsonrpc";
import { handleMcpResponse, handleMcpStream, mediaType } from "./mcp-payment";
import { declareElicitation, McpSessions } from "./mcp-session";
import { makeReplayable } from "./replay";
import type { WalletLink } from "./wallet-link";

/**
 * Replaces `window.fetch` with a wrapper that hands every call to the
 * browser's own fetch and gives back the very same Response or rejection —
 * unless the answer is a price: an HTTP 402, or an MCP tools/call refused with
 * -32402 / an x402 PaymentRequired result. Those go to the wallet, and on
 * approval the page receives the paid retry instead.
 */
export function installFetchHook(win: Window & typeof globalThis, wallet: WalletLink): void {
  const nativeFetch = win.fetch;
  const sessions = new McpSessions();
  const callNative = ((...args: Parameters<typeof fetch>) =>
    Reflect.apply(nativeFetch, win, args)) as typeof fetch;
  const wrapped = {
    fetch(this: unknown, ...args: Parameters<typeof fetch>): Promise<Response> {
      const [input, init] = args;
      let replayable: ReturnType<typeof makeReplayable>;
      try {
        replayable = makeReplayable(input, init, win.location.href);
      } catch {
        // Whatever made the copy fail (a used body, a bad URL) makes fetch fail the same way.
        return Reflect.apply(nativeFetch, win, args);
      }
      const mcpRequest = readJsonRpcRequest(init?.body);
      const declared =
        mcpRequest?.method === "initialize" ? declareElicitation(mcpRequest) : undefined;
      const sent: Parameters<typeof fetch> =
        declared?.body === undefined
          ? (replayable.first ?? args)
          : [input, { ...init, body: declared.body }];
      return Reflect.apply(nativeFetch, win, sent).then((response: Response) => {
        if (response.status === 402) {
          const { url, method } = describeRequest(input, init, win);
          // The URL that answered (after any redirect) is the one priced and paid; a
          // redirected Request whose body cannot be moved there is left unpaid.
          const priced = response.url || url;
          if (priced !== url && !replayable.retargetable) return response;
          return payHttp402(response, { url: priced, method, replayable }, wallet, callNative);
        }
        if (!response.ok || !(mcpRequest || mediaType(response) === "text/event-stream"))
          return response;
        const { url, method } = describeRequest(input, init, win);
        const headers = new Headers(
          init?.headers ?? (input instanceof Request ? input.headers : {}),
        );
        const sessionId = headers.get("mcp-session-id");
        if (!mcpRequest) {
          // The standalone stream of a session the page initialized here.
          const walletAnswersForms = sessions.walletAnswersForms(url, sessionId);
          if (method !== "GET" || walletAnswersForms === undefined) return response;
          const answer = (body: string) => postToSession(url, headers, init, body);
          return handleMcpStream(
            response,
            { server: url, walletAnswersForms, answer },
            wallet,
            callNative,
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
          { server: url, request: mcpRequest, replayable, walletAnswersForms },
          wallet,
          callNative,
        );
      });
    },
  }.fetch;
  Object.defineProperty(wrapped, "length", { value: nativeFetch.length });
  Object.defineProperty(win, "fetch", {
    value: wrapped,
    writable: true,
    configurable: true,
    enumerable: true,
  });
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

/** URL and method without building a Request (which would consume a stream body). */
function describeRequest(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  win: Window,
): { url: string; method: string } {
  const isRequest = input instanceof Request;
  const url = isRequest ? input.url : new URL(String(input), win.location.href).href;
  const method = (init?.method ?? (isRequest ? input.method : "GET")).toUpperCase();
  return { url, method };
}
