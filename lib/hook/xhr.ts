import { carriesNoBody } from "./http-method";
import type { HttpPayer } from "./http-payment";
import { bodyAsSent } from "./replay";
import { change, progress, type Shown, type Step, type XhrCall, type XhrStage } from "./xhr-call";

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

/**
 * Holds an async XMLHttpRequest's 402 from the page (its events, its state)
 * and has the hook's second half pay it like `fetch`'s (xhr-settle.ts); the
 * page's XHR then sees only the paid answer: status, headers, response per
 * responseType, and the events a load fires, in their order. When the wallet
 * does not pay, the page gets the 402's own events as the browser fired them.
 * Sync XHR is left alone.
 */
export function installXhrHook(win: Window & typeof globalThis, payer: HttpPayer): void {
  const proto = win.XMLHttpRequest.prototype;
  const calls = new WeakMap<XMLHttpRequest, XhrCall>();
  // Set before or after open(), and kept by a later open(), as XHR keeps it.
  const mimes = new WeakMap<XMLHttpRequest, string>();
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
  const play = (xhr: XMLHttpRequest, call: XhrCall, shown: Shown | undefined, steps: Step[]) => {
    call.done = true;
    for (const [state, event] of steps) {
      // Opened again by a handler (or aborted): its new request is what it shows from now on.
      if (calls.get(xhr) !== call) return;
      show(xhr, shown ? viewOf(xhr, shown, state) : { readyState: () => state });
      xhr.dispatchEvent(event);
    }
    if (!shown) show(xhr, {});
  };
  const ending = (xhr: XMLHttpRequest, call: XhrCall, type: string) => {
    play(xhr, call, blank(xhr), [
      [4, change()],
      [4, progress(type)],
      [4, progress("loadend")],
    ]);
  };

  const settle = (xhr: XMLHttpRequest, call: XhrCall) => {
    const untouched = () => play(xhr, call, undefined, call.held ?? []);
    if (read(xhr, "status") !== 402) return untouched();
    const stage: XhrStage = { read, play, ending, untouched, mime: mimes.get(xhr) };
    // Without the half (it could not load), the wallet is not asked: the page gets its 402.
    payer
      .loadHalf()
      .then((half) => half.settleXhr(xhr, call, stage, payer, win.document.baseURI), untouched);
  };

  const hear = (event: Event) => {
    // Only the browser's own events: one the page dispatches (a made-up loadend) settles nothing.
    if (!event.isTrusted) return;
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
    if (event.type === "loadend") settle(xhr, call);
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
      const url = new URL(args[1] as string, win.document.baseURI);
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
    else if (call && body != null && !carriesNoBody(call.method))
      call.body = bodyAsSent(body as BodyInit) as BodyInit;
    return undefined;
  });
  wrap(proto, "overrideMimeType", function () {
    return (args) => mimes.set(this, String(args[0]));
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
  name: "open" | "send" | "setRequestHeader" | "overrideMimeType" | "abort",
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
