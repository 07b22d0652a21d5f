/**
 * What the page hook's XMLHttpRequest part (xhr.ts) and the paying of an
 * XHR's 402 in the hook's second half (xhr-settle.ts) share.
 */

/** One of the page's XHRs, as the hook follows it. */
export interface XhrCall {
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

export type Step = readonly [readyState: number, event: Event];

/** What the page's XHR shows in place of the browser's state. */
export interface Shown {
  status: number;
  statusText: string;
  url: string;
  headers: Headers;
  /** The body as text, and as the page's responseType asks. */
  text: string;
  body: unknown;
}

/** What the hook lends the half to show the page's XHR an outcome. */
export interface XhrStage {
  /** The browser's own value of an XHR property, past the hook's view. */
  read(xhr: XMLHttpRequest, key: string): unknown;
  /** Dispatches `steps`, each event seeing `shown` (or the browser's state) at its readyState. */
  play(xhr: XMLHttpRequest, call: XhrCall, shown: Shown | undefined, steps: Step[]): void;
  /** Ends the XHR with `type` (error, abort, timeout) and loadend, as the browser would. */
  ending(xhr: XMLHttpRequest, call: XhrCall, type: string): void;
  /** Gives the page the 402's own events, as the browser fired them. */
  untouched(): void;
  /** The MIME type the page set with overrideMimeType(), which the answer is read as. */
  mime: string | undefined;
}

export const change = () => new Event("readystatechange");

/** A progress event over `loaded` bytes, all of them (a hook-made load has its whole body). */
export const progress = (type: string, loaded = 0) =>
  new ProgressEvent(type, { loaded, total: loaded, lengthComputable: loaded > 0 });
