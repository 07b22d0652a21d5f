import { describe, expect, it } from "vitest";
import type { PageRequest } from "../messages";
import type { Notifier, Requester } from "./bridge";
import { createWalletLink } from "./wallet-link";

/** A link whose requests wait until the test answers them, and whose notices are kept. */
function link() {
  const requests: PageRequest[] = [];
  const notices: PageRequest[] = [];
  let answer: (value: unknown) => void = () => undefined;
  const request = ((sent: PageRequest) => {
    requests.push(sent);
    return new Promise<unknown>((resolve) => {
      answer = resolve;
    });
  }) as Requester;
  const notify: Notifier = (sent) => {
    notices.push(sent);
  };
  return { wallet: createWalletLink(request, notify), requests, notices, answer: () => answer };
}

const challenge = {
  transport: "http" as const,
  url: "https://api.example/search",
  method: "GET",
  body: "{}",
  paymentRequiredHeader: null,
};

describe("createWalletLink: pay", () => {
  it("withdraws the request by its id when the page's signal aborts before the wallet answers", () => {
    const { wallet, requests, notices } = link();
    const abort = new AbortController();
    void wallet.pay(challenge, abort.signal);
    abort.abort();
    const requestId = (requests[0]?.params as { requestId?: string } | undefined)?.requestId;
    expect(requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(notices).toEqual([{ method: "stipendex_withdraw", params: { requestId } }]);
  });

  it("withdraws nothing once the wallet has answered", async () => {
    const { wallet, notices, answer } = link();
    const abort = new AbortController();
    const paid = wallet.pay(challenge, abort.signal);
    answer()({ paymentId: "p1" });
    await paid;
    abort.abort();
    expect(notices).toEqual([]);
  });
});

describe("createWalletLink: elicit", () => {
  it("sends its own request id, and withdraws the elicitation by it when the signal aborts", () => {
    const { wallet, requests, notices } = link();
    const abort = new AbortController();
    void wallet.elicit({ server: "https://mcp.example/mcp", params: {} }, abort.signal);
    const requestId = (requests[0]?.params as { requestId?: string } | undefined)?.requestId;
    expect(requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(notices).toEqual([]);
    abort.abort();
    expect(notices).toEqual([{ method: "stipendex_withdraw", params: { requestId } }]);
  });
});
