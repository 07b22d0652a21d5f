// @vitest-environment happy-dom
import { describe, expect, it, vi } from "vitest";
import { payingPayer } from "../../tests/unit-support/hook/paying-payer";
import type { Shown, XhrCall, XhrStage } from "./xhr-call";
import { settleXhr } from "./xhr-settle";

// Black-box review: an XHR with responseType "document" met a Stipendex (or x402 v1) price in its
// 402's JSON body, which such an XHR never holds (its response is null): it was never paid.
describe("settleXhr: an XHR whose responseType is document", () => {
  const URL = "https://api.good.example/report";
  const quoteBody = JSON.stringify({ quote: { stipendex: "quote/0.1", jws: "a.b.c" } });

  async function settle(server: (paid: boolean) => Response, headers = "") {
    vi.stubGlobal("ProgressEvent", Event);
    let shown: Shown | undefined;
    let untouched = false;
    const stage: XhrStage = {
      read: (_xhr, key) =>
        ({
          responseURL: URL,
          response: null,
          getAllResponseHeaders: () => `content-type: application/json\r\n${headers}`,
        })[key],
      play: (_xhr, _call, what) => {
        shown = what;
      },
      ending: () => undefined,
      untouched: () => {
        untouched = true;
      },
      mime: undefined,
    };
    const { payer, challenges, sent } = payingPayer((request) =>
      server(request.headers.has("stipendex-payment")),
    );
    const xhr = { responseType: "document", timeout: 0, withCredentials: false } as XMLHttpRequest;
    const call: XhrCall = { method: "GET", url: URL, headers: [], payable: true };
    await settleXhr(xhr, call, stage, payer, "https://agent.example/app");
    vi.unstubAllGlobals();
    return { challenges, sent, shown, untouched };
  }

  const priced = (paid: boolean) =>
    paid
      ? new Response("<p>paid</p>", { headers: { "content-type": "text/html" } })
      : new Response(quoteBody, { status: 402, headers: { "content-type": "application/json" } });

  it("asks the server again for the price its body held, pays it once, and shows the paid page", async () => {
    const { challenges, sent, shown, untouched } = await settle(priced);
    expect(challenges).toEqual([
      expect.objectContaining({ transport: "http", url: URL, method: "GET", body: quoteBody }),
    ]);
    expect(sent.map((request) => request.headers.get("stipendex-payment"))).toEqual([
      null,
      "proof",
    ]);
    expect(untouched).toBe(false);
    if (!shown) return expect.unreachable("the paid answer was not shown");
    expect(shown.status).toBe(200);
    expect((shown.body as Document).querySelector("p")?.textContent).toBe("paid");
  });

  it("reads a price its header carries without asking again", async () => {
    const header = `payment-required: ${btoa(JSON.stringify({ x402Version: 2, accepts: [] }))}\r\n`;
    const { sent } = await settle(priced, header);
    expect(sent.every((request) => request.headers.has("stipendex-payment"))).toBe(true);
  });

  it("leaves the 402 to the page when asked again it names no price", async () => {
    const { challenges, untouched } = await settle(() => new Response("gone", { status: 404 }));
    expect(challenges).toEqual([]);
    expect(untouched).toBe(true);
  });
});
