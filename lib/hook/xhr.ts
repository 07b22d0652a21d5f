import { type HttpPayer, payHttp402 } from "./http-payment";
import { makeReplayable } from "./replay";

/** What the page reads from its XHR; while the wallet works these come from a view, not the browser. */
const SHOWN = [
  "readyState",
  "status",
  "statusText",
  "responseURL",
  "response",
  "responseText",
  "responseXML",
  "getResponseHeader",
  "getAllResponseHeaders",
] as const;
type View = Partial<Record<(typeof SHOWN)[number], () => unknown>>;

/** The XHR events a 402 is hidden from (upload events are left alone). */
const EVENTS = "readystatechange progress load error abort timeout loadend".split(" ");

interface Call {
  method: string;
  url: string;
  headers: [string, string][];
  /** False for sync XHR, user/password URLs and Document bodies: left alone. */
  payable: boolean;
  body?: BodyInit;
  /** Set once a 402 is seen: the browser's events since then, each with the readyState it had. */
  held?: Step[];
  /** Settled, aborted or opened again: the hook no longer touches its events. */
  done?: boolean;
  stop?: AbortController;
}

/**
 * Pays an async XMLHttpRequest's 402 like `fetch`'s (the same payHttp402, the
 * retry sent with the browser's fetch, never through a redirect), and shows the
 * page's XHR only the paid answer: status, headers, response per
 * responseType, and the events a load fires, in their order. When the wallet
 * does not pay, the page gets the 402's own events as the browser fired them.
 * Sync XHR is left alone.
 */
export function installXhrHook(win: Window & typeof globalThis, payer: HttpPayer): void {
  const proto = win.XMLHttpRequest.prototype;
  const calls = new WeakMap<XMLHttpRequest, Call>();
  const read = (xhr: XMLHttpRequest, key: string) => Reflect.get(proto, key, xhr);
  const blank = (xhr: XMLHttpRequest): Shown => ({
    status: 0,
    statusText: "",
    url: "",
    headers: new Headers(),
    text: "",
    body: textual(xhr) ? "" : null,
  });
  /**
   * Dispatches `steps` at the page's XHR, each event seeing its readyState and,
   * when given, `shown` instead of the browser's state; leaves `shown` (at the last
   * readyState) or, without it, the browser's own state.
   */
  const play = (xhr: XMLHttpRequest, call: Call, shown: Shown | undefined, steps: Step[]) => {
    call.done = true;
    for (const [state, event] of steps) {
      show(xhr, shown ? viewOf(xhr, shown, state) : { readyState: () => state });
      xhr.dispatchEvent(event);
    }
    if (!shown) show(xhr, {});
  };
  const ending = (xhr: XMLHttpRequest, call: Call, type: string) => {
    play(xhr, call, blank(xhr), [
      [4, change()],
      [4, progress(type)],
      [4, progress("loadend")],
    ]);
  };

  const present = async (xhr: XMLHttpRequest, call: Call, paid: Response) => {
    const { text, body, size } = await payer
      .loadHalf()
      .then((half) => half.xhrBody(paid, xhr.responseType));
    if (call.done) return;
    play(
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
  };

  const settle = async (xhr: XMLHttpRequest, call: Call) => {
    const untouched = () => play(xhr, call, undefined, call.held ?? []);
    if (read(xhr, "status") !== 402) return untouched();
    const url = read(xhr, "responseURL") || call.url;
    const raw = read(xhr, "response");
    const response = new Response(
      // A document answer's text is not kept: only a v2 header price is read from it.
      xhr.responseType === "json" ? JSON.stringify(raw) : raw,
      { status: 402, headers: readHeaders(read(xhr, "getAllResponseHeaders").call(xhr)) },
    );
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
      win.location.href,
    );
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
      const paid = await payHttp402(response, { url, method: call.method, replayable }, timed);
      if (call.done) return;
      if (paid === response) return untouched();
      await present(xhr, call, paid);
    } catch {
      // The paid retry (or its body) failed on the network or timed out: so does the page's XHR.
      // Only the timeout aborts `stop` while the call is not done (abort() and open() end it first).
      if (!call.done) ending(xhr, call, stop.signal.reason ?? "error");
    }
  };

  const hear = (event: Event) => {
    const xhr = event.currentTarget as XMLHttpRequest;
    const call = calls.get(xhr);
    if (!call || call.done) return;
    if (!call.held) {
      if (!call.payable || read(xhr, "readyState") !== 2 || read(xhr, "status") !== 402) return;
      call.held = [];
      show(xhr, viewOf(xhr, blank(xhr), 1));
    }
    event.stopImmediatePropagation();
    const copy = new (event.constructor as typeof Event)(event.type, event);
    call.held.push([read(xhr, "readyState"), copy]);
    if (event.type === "loadend") void settle(xhr, call);
  };
  // Listening from construction on puts the hook ahead of every listener the page adds.
  Object.defineProperty(win, "XMLHttpRequest", {
    value: class extends win.XMLHttpRequest {
      static override name = "XMLHttpRequest";
      constructor() {
        super();
        for (const type of EVENTS) this.addEventListener(type, hear);
      }
    },
    writable: true,
    configurable: true,
  });

  wrap(proto, "open", function () {
    const previous = calls.get(this);
    if (previous) {
      previous.done = true;
      previous.stop?.abort();
    }
    show(this, {});
    return (args) => {
      const url = new URL(args[1] as string, win.location.href);
      calls.set(this, {
        method: String(args[0]).toUpperCase(),
        url: url.href,
        headers: [],
        payable: (args.length < 3 || Boolean(args[2])) && !args[3] && !url.username,
      });
    };
  });
  wrap(proto, "setRequestHeader", function () {
    return (args) => calls.get(this)?.headers.push(args.slice(0, 2) as [string, string]);
  });
  wrap(proto, "send", function (args) {
    const call = calls.get(this);
    const body = args[0];
    if (body instanceof Document && call) call.payable = false;
    else if (call && body != null && !/^(GET|HEAD)$/.test(call.method))
      call.body = body as BodyInit;
    return undefined;
  });
  wrap(proto, "abort", function () {
    const call = calls.get(this);
    show(this, {});
    if (!call?.held || call.done) return;
    call.done = true;
    call.stop?.abort();
    // A request still loading fires its own abort events; one the wallet held after it ended fires none.
    if (read(this, "readyState") !== 4) return;
    return () => {
      ending(this, call, "abort");
      show(this, {});
    };
  });
}

/**
 * Wraps an XMLHttpRequest method: `hook` runs before the browser's own method and
 * may return what to run after it (only if the browser accepted the call).
 */
function wrap(
  proto: XMLHttpRequest,
  name: "open" | "send" | "setRequestHeader" | "abort",
  hook: (this: XMLHttpRequest, args: unknown[]) => ((args: unknown[]) => unknown) | undefined,
): void {
  const original = proto[name] as (...args: unknown[]) => void;
  const wrapped = {
    [name](this: XMLHttpRequest, ...args: unknown[]) {
      const after = hook.call(this, args);
      Reflect.apply(original, this, args);
      after?.(args);
    },
  }[name];
  (proto as unknown as Record<string, unknown>)[name] = wrapped;
}

type Step = readonly [readyState: number, event: Event];

/** What the page's XHR shows in place of the browser's state. */
interface Shown {
  status: number;
  statusText: string;
  url: string;
  headers: Headers;
  /** The body as text, and as the page's responseType asks. */
  text: string;
  body: unknown;
}

function show(xhr: XMLHttpRequest, view: View): void {
  for (const key of SHOWN) delete (xhr as unknown as Record<string, unknown>)[key];
  for (const [key, get] of Object.entries(view)) {
    Object.defineProperty(xhr, key, { get, configurable: true });
  }
}

/** The getters of `shown` at `readyState`: the body once loading (text) or done (any type). */
function viewOf(xhr: XMLHttpRequest, shown: Shown, readyState: number): View {
  const isText = textual(xhr);
  return {
    readyState: () => readyState,
    status: () => shown.status,
    statusText: () => shown.statusText,
    responseURL: () => shown.url,
    response: () =>
      readyState > 3 || (isText && readyState > 2) ? shown.body : isText ? "" : null,
    responseText: () => {
      if (!isText) throw new DOMException("Not text", "InvalidStateError");
      return readyState > 2 ? shown.text : "";
    },
    responseXML: () => (readyState > 3 && xhr.responseType === "document" ? shown.body : null),
    getResponseHeader: () => (name: string) => shown.headers.get(name),
    getAllResponseHeaders: () => () =>
      [...shown.headers].map(([name, value]) => `${name}: ${value}\r\n`).join(""),
  };
}

const textual = (xhr: XMLHttpRequest) => /^(text)?$/.test(xhr.responseType);
const change = () => new Event("readystatechange");
/** A progress event over `loaded` bytes, all of them (a hook-made load has its whole body). */
const progress = (type: string, loaded = 0) =>
  new ProgressEvent(type, { loaded, total: loaded, lengthComputable: loaded > 0 });

/** An XHR's getAllResponseHeaders() text as Headers. */
export function readHeaders(all: string): Headers {
  const headers = new Headers();
  for (const [, name, value] of all.matchAll(/^([^:\r\n]+):\s*(.*)$/gm)) {
    headers.append(name as string, value as string);
  }
  return headers;
}
