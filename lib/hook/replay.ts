import { carriesNoBody } from "./http-method";

/**
 * Keeps what is needed to send a request a second time (the paid retry)
 * without consuming a body the page or the first attempt will read. Only
 * bodies that can be read once are duplicated: a Request's own body (cloned)
 * and a ReadableStream body (teed); strings, Blobs, buffers and forms are
 * simply reused.
 */
export interface ReplayableRequest {
  /**
   * Arguments for the first attempt: the page's, its init as taken when fetch was called;
   * undefined when it gave none (its own are sent).
   */
  first: [RequestInfo | URL, RequestInit | undefined] | undefined;
  /**
   * Builds the paid retry with extra headers (and a new body), to `url` when
   * given (the URL that answered 402), never following a redirect; once only
   * when the body was a stream.
   */
  replay(extraHeaders: Record<string, string>, body?: string, url?: string): Request;
  /** Whether `replay` can send to another URL than the page's (not a Request that may have a body). */
  retargetable: boolean;
  /** The URL the page's request goes to. */
  url: string;
}

/**
 * A body as fetch takes it when called: a buffer's bytes copied (into a Blob,
 * which as a body has no type, as a buffer has none), a form's entries, and
 * any other object's text, so that the page reusing or changing them after the
 * call changes neither the request sent nor its paid retry.
 */
export function bodyAsSent(body: BodyInit | null | undefined): BodyInit | null | undefined {
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return new Blob([body]);
  if (body instanceof URLSearchParams) return new URLSearchParams(body);
  if (body instanceof FormData) {
    const form = new FormData();
    body.forEach((value, name) => {
      form.append(name, value);
    });
    return form;
  }
  // A plain object is text, as fetch and XHR make it once, when called (its toString may change).
  // Told by its tag, not instanceof: a Blob or stream of another frame of the page is left whole.
  return Object.prototype.toString.call(body) === "[object Object]" ? String(body) : body;
}

export function makeReplayable(
  input: RequestInfo | URL,
  given: RequestInit | undefined,
  baseUrl: string,
): ReplayableRequest {
  // Taken as fetch takes it, when called: a page may reuse or change its init after the call.
  const init = given && {
    ...given,
    ...(given.headers ? { headers: new Headers(given.headers) } : {}),
    body: bodyAsSent(given.body),
  };
  let first: [RequestInfo | URL, RequestInit | undefined] | undefined = init && [input, init];
  let spareInput: RequestInfo | URL =
    input instanceof Request ? input : new URL(String(input), baseUrl).href;
  let spareInit: RequestInit | undefined = init;
  if (init?.body instanceof ReadableStream) {
    const [sent, kept] = init.body.tee();
    first = [input, { ...init, body: sent }];
    spareInit = { ...init, body: kept };
  } else if (
    input instanceof Request &&
    input.body !== null &&
    !input.bodyUsed &&
    init?.body === undefined
  ) {
    spareInput = input.clone();
  }
  // A Request's body cannot be moved to another URL without reading it (Firefox has no
  // Request.body to tell whether there is one): only a GET or HEAD, which has none, is moved.
  const retargetable = !(spareInput instanceof Request) || carriesNoBody(spareInput.method);
  return {
    first,
    replay(extraHeaders, body, url) {
      const input =
        url === undefined || !retargetable
          ? spareInput
          : spareInput instanceof Request
            ? new Request(url, spareInput)
            : url;
      const base = new Request(input, body === undefined ? spareInit : { ...spareInit, body });
      const headers = new Headers(base.headers);
      for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
      // Chrome requires `duplex` whenever the body is a stream.
      const streaming: RequestInit =
        base.body instanceof ReadableStream ? ({ duplex: "half" } as RequestInit) : {};
      // A payment goes to the URL that was priced and nowhere else: never through a redirect.
      // (Any init resets a Request's referrer and its policy: the page's are given again.)
      const { referrer, referrerPolicy } = base;
      return new Request(base, {
        ...streaming,
        headers,
        redirect: "manual",
        referrer,
        referrerPolicy,
      });
    },
    retargetable,
    url: spareInput instanceof Request ? spareInput.url : spareInput,
  };
}
