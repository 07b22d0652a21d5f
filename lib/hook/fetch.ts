import { type HttpPayer, payHttp402, pricedUrl } from "./http-payment";
import { readJsonRpcRequest } from "./jsonrpc";
import type { CallDescription, HookedCall, HookServices, McpHook } from "./mcp-hook";
import { makeReplayable } from "./replay";
import type { WalletLink } from "./wallet-link";

/** Where the MCP half comes from: loaded on first use, then at hand. */
export interface McpSource {
  /** The MCP half once loaded; undefined before. */
  loaded(): McpHook | undefined;
  load(): Promise<McpHook>;
}

/**
 * Replaces `window.fetch` with a wrapper that hands every call to the
 * browser's own fetch and gives back the very same Response or rejection —
 * unless the answer is a price: an HTTP 402, or an MCP tools/call refused with
 * -32402 / an x402 PaymentRequired result. Those go to the wallet, and on
 * approval the page receives the paid retry instead. MCP is the job of a
 * second script (mcp-hook.ts), loaded on the page's first JSON-RPC request.
 * Returns what paying a 402 takes, for the XMLHttpRequest hook's paid retries.
 */
export function installFetchHook(
  win: Window & typeof globalThis,
  wallet: WalletLink,
  mcp: McpSource,
): HttpPayer {
  const nativeFetch = win.fetch;
  const callNative = ((...args: Parameters<typeof fetch>) =>
    Reflect.apply(nativeFetch, win, args)) as typeof fetch;
  const services: HookServices = {
    wallet,
    nativeFetch: callNative,
    loadHalf: () => mcp.load(),
    send: (call, sent) => callNative(...(sent ?? call.replayable.first ?? call.args)),
    pay402: (call, response, payer = services) => {
      const { url, method, signal } = call.describe();
      // A Request that may have a body cannot be sent to another URL than its own: left unpaid there.
      const priced = pricedUrl({ url, method }, response);
      if (priced === undefined || (priced !== url && !call.replayable.retargetable)) {
        return Promise.resolve(response);
      }
      return payHttp402(
        response,
        { url: priced, method, replayable: call.replayable, signal },
        payer,
      );
    },
  };
  const plain = (call: HookedCall) =>
    services
      .send(call)
      .then((response) => (response.status === 402 ? services.pay402(call, response) : response));
  const wrapped = {
    fetch(this: unknown, ...args: Parameters<typeof fetch>): Promise<Response> {
      const [input, given] = args;
      let replayable: ReturnType<typeof makeReplayable>;
      try {
        replayable = makeReplayable(input, given, win.document.baseURI);
      } catch {
        // Whatever made the copy fail (a used body, a bad URL) makes fetch fail the same way.
        return Reflect.apply(nativeFetch, win, args);
      }
      const init = replayable.first?.[1];
      const mcpRequest = readJsonRpcRequest(init?.body);
      const call: HookedCall = {
        args,
        replayable,
        ...(mcpRequest ? { mcpRequest } : {}),
        describe: () => describeRequest(input, init, replayable.url),
      };
      const loaded = mcp.loaded();
      if (loaded) return loaded.fetch(call, services);
      if (!mcpRequest) return plain(call);
      // Without its MCP half, the page's MCP client gets what the server sent, unpaid.
      return mcp.load().then(
        (hook) => hook.fetch(call, services),
        () => plain(call),
      );
    },
  }.fetch;
  Object.defineProperty(wrapped, "length", { value: nativeFetch.length });
  Object.defineProperty(win, "fetch", {
    value: wrapped,
    writable: true,
    configurable: true,
    enumerable: true,
  });
  return services;
}

/** Method and signal without building a Request (which would consume a stream body). */
function describeRequest(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  url: string,
): CallDescription {
  const isRequest = input instanceof Request;
  const method = (init?.method ?? (isRequest ? input.method : "GET")).toUpperCase();
  const signal = init?.signal ?? (isRequest ? input.signal : undefined);
  return { url, method, ...(signal ? { signal } : {}) };
}
