import { type HttpPayer, payHttp402, pricedUrl } from "./http-payment";
import { makeReplayable } from "./replay";
import { xhrBody } from "./xhr-body";
import { change, progress, type XhrCall, type XhrStage } from "./xhr-call";

/**
 * Pays the 402 an async XHR ended with, the way `fetch`'s is paid (the same
 * payHttp402, the retry sent with the browser's fetch, never through a
 * redirect), and shows the page's XHR the paid answer as a load of it. In the
 * hook's second half: only a page whose XHR meets a 402 loads it.
 */
export async function settleXhr(
  xhr: XMLHttpRequest,
  call: XhrCall,
  stage: XhrStage,
  payer: HttpPayer,
  baseUrl: string,
): Promise<void> {
  // An XHR's answer says nothing of a redirect but its URL.
  const url = pricedUrl(call, { url: String(stage.read(xhr, "responseURL")), redirected: false });
  if (url === undefined) return stage.untouched();
  const raw = stage.read(xhr, "response") as BodyInit | null;
  const allHeaders = stage.read(xhr, "getAllResponseHeaders") as () => string;
  const headers = readHeaders(allHeaders.call(xhr));
  const stop = new AbortController();
  call.stop = stop;
  const replayable = makeReplayable(
    call.url,
    {
      method: call.method,
      headers: call.headers,
      body: call.body,
      credentials: xhr.withCredentials ? "include" : "same-origin",
      signal: stop.signal,
    },
    baseUrl,
  );
  // A document answer keeps no text (a JSON body is none at all): a price in the body is read by
  // asking again, unless the header carries one (x402 v2).
  const response =
    xhr.responseType === "document" && !headers.get("payment-required")
      ? await payer.nativeFetch(replayable.replay({})).catch(() => undefined)
      : new Response(xhr.responseType === "json" ? JSON.stringify(raw) : raw, {
          status: 402,
          headers,
        });
  if (call.done) return;
  if (response?.status !== 402) {
    await response?.body?.cancel().catch(() => undefined);
    return stage.untouched();
  }
  // The page's timeout bounds the paid retry as it bounded the first request: from its sending
  // (the person's decision is not the network's time), through its body.
  const timed: HttpPayer = {
    ...payer,
    nativeFetch: (retry) => {
      // The reason is the event the page's XHR then fires.
      if (xhr.timeout) setTimeout(() => stop.abort("timeout"), xhr.timeout);
      return payer.nativeFetch(retry);
    },
  };
  try {
    // `stop` is the page's abort() too: while the wallet asks, it withdraws the request.
    const paid = await payHttp402(
      response,
      { url, method: call.method, replayable, signal: stop.signal },
      timed,
    );
    if (call.done) return;
    if (paid === response) return stage.untouched();
    const { text, body, size } = await xhrBody(paid, xhr.responseType, stage.mime);
    if (call.done) return;
    stage.play(
      xhr,
      call,
      {
        status: paid.status,
        statusText: paid.statusText,
        url: paid.url,
        headers: paid.headers,
        text,
        body,
      },
      [
        [2, change()],
        [3, change()],
        [3, progress("progress", size)],
        [4, change()],
        [4, progress("load", size)],
        [4, progress("loadend", size)],
      ],
    );
  } catch {
    // The paid retry (or its body) failed on the network or timed out: so does the page's XHR.
    // Only the timeout aborts `stop` while the call is not done (abort() and open() end it first).
    if (!call.done) stage.ending(xhr, call, stop.signal.reason ?? "error");
  }
}

/** An XHR's getAllResponseHeaders() text as Headers. */
export function readHeaders(all: string): Headers {
  const headers = new Headers();
  for (const [, name, value] of all.matchAll(/^([^:\r\n]+):\s*(.*)$/gm)) {
    headers.append(name as string, value as string);
  }
  return headers;
}
