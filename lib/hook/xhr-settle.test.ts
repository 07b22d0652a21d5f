import { describe, expect, it, vi } from "vitest";
import { payingPayer } from "../../tests/unit-support/hook/paying-payer";
import type { XhrCall, XhrStage } from "./xhr-call";
import { readHeaders, settleXhr } from "./xhr-settle";

describe("readHeaders", () => {
  it("reads getAllResponseHeaders() text, values with colons and repeated names included", () => {
    const headers = readHeaders(
      "content-type: application/json\r\npayment-required: eyJ4:NDAy\r\nvary: origin\r\nvary: accept\r\n",
    );
    expect(headers.get("Content-Type")).toBe("application/json");
    expect(headers.get("payment-required")).toBe("eyJ4:NDAy");
    expect(headers.get("vary")).toBe("origin, accept");
    expect([...readHeaders("")]).toEqual([]);
  });
});

describe("settleXhr: a 402 met after a redirect", () => {
  const quoteBody = JSON.stringify({ quote: { stipendex: "quote/0.1", jws: "a.b.c" } });
  const authorization: [string, string] = ["authorization", "Bearer good-api-token"];

  /** Settles an XHR of `call` whose 402 came from `responseURL`, with a wallet that pays. */
  async function settle(call: Omit<XhrCall, "headers" | "payable">, responseURL: string) {
    // Node has no ProgressEvent; the events of a load are only counted here.
    vi.stubGlobal("ProgressEvent", Event);
    const outcome: { shown?: number; untouched?: boolean } = {};
    const browser: Record<string, unknown> = {
      responseURL,
      response: quoteBody,
      getAllResponseHeaders: () => "content-type: application/json\r\n",
    };
    const stage: XhrStage = {
      read: (_xhr, key) => browser[key],
      play: (_xhr, _call, shown) => {
        outcome.shown = shown?.status;
      },
      ending: () => undefined,
      untouched: () => {
        outcome.untouched = true;
      },
      mime: undefined,
    };
    const { payer, challenges, sent } = payingPayer(() => new Response("paid"));
    const xhr = { responseType: "", timeout: 0, withCredentials: false } as XMLHttpRequest;
    const hooked: XhrCall = { ...call, headers: [authorization], payable: true };
    await settleXhr(xhr, hooked, stage, payer, "https://agent.example/app");
    vi.unstubAllGlobals();
    return { challenges, sent, outcome };
  }

  it("leaves it unpaid, the wallet not asked, when the request was not a GET or left its origin", async () => {
    const post = {
      method: "POST",
      url: "https://api.good.example/submit",
      body: "secret=hunter2",
    };
    const get = { method: "GET", url: "https://api.good.example/page" };
    for (const [call, to] of [
      [post, "https://other.example/landing"],
      [post, "https://api.good.example/landing"],
      [get, "https://other.example/landing"],
    ] as const) {
      const { challenges, sent, outcome } = await settle(call, to);
      expect(outcome).toEqual({ untouched: true });
      expect(challenges).toEqual([]);
      expect(sent).toEqual([]);
    }
  });

  it("pays at the URL that answered when it was a GET that stayed on its origin", async () => {
    const { challenges, sent, outcome } = await settle(
      { method: "GET", url: "https://api.good.example/start" },
      "https://api.good.example/landing",
    );
    expect(challenges).toMatchObject([{ url: "https://api.good.example/landing", method: "GET" }]);
    expect(sent[0]?.url).toBe("https://api.good.example/landing");
    expect(sent[0]?.headers.get("authorization")).toBe(authorization[1]);
    expect(outcome).toEqual({ shown: 200 });
  });
});
