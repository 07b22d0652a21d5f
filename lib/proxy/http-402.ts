import { type HttpPayer, payHttp402, pricedUrl } from "../hook/http-payment";
import { readJsonRpcRequest } from "../hook/jsonrpc";
import { createMcpHook } from "../hook/mcp-hook";
import { isMcpPriceAnswer } from "../hook/mcp-payment";
import { makeReplayable } from "../hook/replay";
import type { ProxyWallet } from "./paid-call";

/**
 * The fetch under the proxy's MCP client, for servers that answer a tools/call
 * with HTTP 402 (seed 004: an x402 `accepts[]` body, paid with `X-PAYMENT`),
 * which the SDK's transport would only fail with: the 402 is paid as the page
 * hook pays one (hook/http-payment.ts) and the transport gets the paid answer.
 * A 402 whose body is the call's JSON-RPC -32402 is handed on as the JSON-RPC
 * answer it is (paid-call.ts pays it). Everything else passes through.
 */
export function payingHttp402(base: typeof fetch, wallet: ProxyWallet): typeof fetch {
  const half = createMcpHook();
  const payer: HttpPayer = {
    wallet: {
      pay: (challenge, signal) => wallet.pay(challenge, signal),
      receipt: (params) => void wallet.receipt(params).catch(() => undefined),
      elicit: (params, signal) => wallet.elicit(params, signal),
      reportMcpServer: (sighting) => void wallet.report(sighting).catch(() => undefined),
    },
    nativeFetch: base,
    loadHalf: async () => half,
  };
  return async (input, init) => {
    const request = readJsonRpcRequest(init?.body);
    if (request?.method !== "tools/call" || input instanceof Request) return base(input, init);
    const url = new URL(input).href;
    const replayable = makeReplayable(url, init, url);
    const response = await base(...(replayable.first ?? [url, init]));
    if (response.status !== 402) return response;
    if (await isMcpPriceAnswer(response, request)) {
      const { statusText, headers } = response;
      return new Response(response.body, { status: 200, statusText, headers });
    }
    const method = init?.method ?? "GET";
    const priced = pricedUrl({ url, method }, response);
    if (priced === undefined) return response;
    const signal = init?.signal ?? undefined;
    const paid = await payHttp402(response, { url: priced, method, replayable, signal }, payer);
    // The 402 handed on no further is let go (its body would error once the session aborts).
    if (paid !== response) await response.body?.cancel().catch(() => undefined);
    return paid;
  };
}
