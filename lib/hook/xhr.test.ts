import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PaymentAnswer } from "../messages";
import type { HttpPayer } from "./http-payment";
import { createMcpHook, type McpHook } from "./mcp-hook";
import type { WalletLink } from "./wallet-link";
import { installXhrHook } from "./xhr";

type Win = Window & typeof globalThis;

interface Served {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}
type Server = (method: string, url: string, headers: Headers, paid: boolean) => Served;

const encode = (text: string) => new TextEncoder().encode(text);
const quoteBody = JSON.stringify({ quote: { stipendex: "quote/0.1", jws: "a.b.c" } });
const pay: PaymentAnswer = {
  paymentId: "p1",
  header: { name: "Stipendex-Payment", value: "proof" },
};

class FakeProgressEvent extends Event {
  loaded: number;
  total: number;
  lengthComputable: boolean;
  constructor(type: string, init: ProgressEventInit = {}) {
    super(type, init);
    this.loaded = init.loaded ?? 0;
    this.total = init.total ?? 0;
    this.lengthComputable = init.lengthComputable ?? false;
  }
}

/** An event the browser fires (trusted); one a page dispatches is not. */
class BrowserEvent extends Event {
  override get isTrusted() {
    return true;
  }
}

class BrowserProgressEvent extends FakeProgressEvent {
  override get isTrusted() {
    return true;
  }
}

/**
 * An XMLHttpRequest as a browser runs one (async only): state on the prototype's
 * accessors, events readystatechange 2 → 3 (+ progress) → 4, load, loadend,
 * responseText decoded with the response's charset (XHR "text response").
 */
function fakeXhrClass(server: Server) {
  return class FakeXhr extends EventTarget {
    static readonly UNSENT = 0;
    static readonly DONE = 4;
    responseType: XMLHttpRequestResponseType = "";
    timeout = 0;
    withCredentials = false;
    #state = 0;
    #method = "GET";
    #url = "";
    #headers = new Headers();
    #served: Served | undefined;
    #generation = 0;

    get readyState() {
      return this.#state;
    }
    get status() {
      return this.#state >= 2 ? (this.#served?.status ?? 0) : 0;
    }
    get statusText() {
      return "";
    }
    get responseURL() {
      return this.#state >= 2 ? this.#url : "";
    }
    get responseText() {
      return this.#text();
    }
    #text() {
      if (this.#state < 3 || !this.#served) return "";
      const type = this.#served.headers["content-type"] ?? "";
      const charset = /charset=([^;]+)/i.exec(type)?.[1] ?? "utf-8";
      return new TextDecoder(charset).decode(this.#served.body);
    }
    get response() {
      return this.#text();
    }
    get responseXML() {
      return null;
    }
    getResponseHeader(name: string) {
      return this.#state >= 2 ? (this.#served?.headers[name.toLowerCase()] ?? null) : null;
    }
    getAllResponseHeaders() {
      if (this.#state < 2 || !this.#served) return "";
      return Object.entries(this.#served.headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
    }
    open(method: string, url: string) {
      this.#generation++;
      this.#method = method.toUpperCase();
      this.#url = new URL(url, "https://agent.example/app").href;
      this.#headers = new Headers();
      this.#served = undefined;
      this.#state = 1;
      this.dispatchEvent(new BrowserEvent("readystatechange"));
    }
    setRequestHeader(name: string, value: string) {
      this.#headers.append(name, value);
    }
    send() {
      const generation = this.#generation;
      const alive = () => generation === this.#generation;
      const step = (fn: () => void) =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            if (alive()) fn();
            resolve();
          }, 1),
        );
      void (async () => {
        await step(() => {
          this.#served = server(this.#method, this.#url, this.#headers, false);
          this.#state = 2;
          this.dispatchEvent(new BrowserEvent("readystatechange"));
        });
        await step(() => {
          this.#state = 3;
          this.dispatchEvent(new BrowserEvent("readystatechange"));
          this.dispatchEvent(new BrowserProgressEvent("progress"));
        });
        await step(() => {
          this.#state = 4;
          this.dispatchEvent(new BrowserEvent("readystatechange"));
          // A browser fires load/loadend only if the page did not open the XHR again meanwhile.
          if (!alive()) return;
          this.dispatchEvent(new BrowserProgressEvent("load"));
          this.dispatchEvent(new BrowserProgressEvent("loadend"));
        });
      })();
    }
    abort() {
      this.#generation++;
      this.#state = 0;
    }
    overrideMimeType() {}
  };
}

/** The hooked window over `server`; the wallet pays each price once `paying` (if given) resolves. */
function setup(server: Server, loadHalf?: () => Promise<McpHook>, paying?: Promise<unknown>) {
  const win = {
    location: { href: "https://agent.example/app" },
    document: { baseURI: "https://agent.example/app" },
    XMLHttpRequest: fakeXhrClass(server),
  } as unknown as Win;
  const challenges: unknown[] = [];
  const wallet: WalletLink = {
    pay: async (challenge) => {
      challenges.push(challenge);
      await paying;
      return pay;
    },
    receipt: () => undefined,
    elicit: async () => ({ action: "decline" }),
    reportMcpServer: () => undefined,
  };
  const half = createMcpHook();
  const payer: HttpPayer = {
    wallet,
    // The paid retry, as the browser's fetch sends it to the same server.
    nativeFetch: async (input) => {
      const request = input as Request;
      const served = server(request.method, request.url, request.headers, true);
      return new Response(served.body as BodyInit, {
        status: served.status,
        headers: served.headers,
      });
    },
    loadHalf: loadHalf ?? (async () => half),
  };
  installXhrHook(win, payer);
  return { win, challenges };
}

const priced: Server = (_method, url, _headers, paid) => {
  const { pathname } = new URL(url);
  if (pathname === "/first") {
    return paid
      ? { status: 200, headers: { "content-type": "text/plain" }, body: encode("paid-first") }
      : {
          status: 402,
          headers: { "content-type": "application/json" },
          body: encode(quoteBody),
        };
  }
  return { status: 200, headers: { "content-type": "text/plain" }, body: encode("second") };
};

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe("installXhrHook", () => {
  beforeEach(() => {
    vi.stubGlobal("ProgressEvent", FakeProgressEvent);
    // Node has no DOM: no body the page sends here is a Document.
    vi.stubGlobal("Document", class {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("shows an XHR the page opens again from its readystatechange handler its new request, not the paid answer", async () => {
    const { win, challenges } = setup(priced);
    const xhr = new win.XMLHttpRequest();
    const seen: [string, number, number, string][] = [];
    let round = 0;
    // A common pattern: one XHR, the next request sent once the last one is done.
    xhr.addEventListener("readystatechange", () => {
      if (xhr.readyState !== 4) return;
      seen.push([round === 0 ? "first" : "second", xhr.readyState, xhr.status, xhr.responseText]);
      if (round++ === 0) {
        xhr.open("GET", "/second");
        xhr.send();
      }
    });
    xhr.open("GET", "/first");
    xhr.send();
    await until(() => seen.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(challenges).toHaveLength(1);
    expect(seen).toEqual([
      ["first", 4, 200, "paid-first"],
      ["second", 4, 200, "second"],
    ]);
  });

  // Red-team review: each loadend a page dispatched at its XHR while the wallet worked paid once more.
  it("pays an XHR's 402 once, whatever events the page dispatches at it meanwhile", async () => {
    let release = () => {};
    const paying = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { win, challenges } = setup(priced, undefined, paying);
    const xhr = new win.XMLHttpRequest();
    const loads: number[] = [];
    xhr.addEventListener("load", () => loads.push(xhr.status));
    xhr.open("GET", "/first");
    xhr.send();
    await until(() => challenges.length === 1);
    for (const type of ["readystatechange", "load", "loadend", "loadend"]) {
      xhr.dispatchEvent(new FakeProgressEvent(type));
    }
    release();
    await until(() => xhr.readyState === 4 && xhr.status === 200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(challenges).toHaveLength(1);
    // The page's own "load" reached its listener; the paid answer's load came after it.
    expect(loads.at(-1)).toBe(200);
    expect(xhr.responseText).toBe("paid-first");
  });

  // A paid XHR ignored overrideMimeType(): its text was read in the answer's own charset.
  it("reads the paid answer as the MIME type the page overrode, set before or after open()", async () => {
    const utf8: Server = (method, url, headers, paid) =>
      paid
        ? { status: 200, headers: { "content-type": "text/plain" }, body: encode("café") }
        : priced(method, url, headers, paid);
    const { win } = setup(utf8);
    const read = async (override: (xhr: XMLHttpRequest) => void) => {
      const xhr = new win.XMLHttpRequest();
      override(xhr);
      xhr.send();
      await until(() => xhr.readyState === 4 && xhr.status === 200);
      return xhr.responseText;
    };
    const before = await read((xhr) => {
      xhr.overrideMimeType("text/plain; charset=latin1");
      xhr.open("GET", "/first");
    });
    const after = await read((xhr) => {
      xhr.open("GET", "/first");
      xhr.overrideMimeType("text/plain; charset=latin1");
    });
    const none = await read((xhr) => xhr.open("GET", "/first"));
    expect([before, after, none]).toEqual(["cafÃ©", "cafÃ©", "café"]);
  });
});
