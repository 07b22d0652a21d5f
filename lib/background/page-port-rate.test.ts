import { describe, expect, it } from "vitest";
import { PAGE_PORT, type PaymentAnswer } from "../messages";
import { DEFAULT_PAGE_LIMITS, PageGuard } from "./page-guard";
import { type ServedPort, servePagePort } from "./page-port";
import { createRouter, type PageHandlers, type UiHandlers } from "./router";
import type { MessageSender } from "./sender";

const ID = "wallet-id";
const PAGE: MessageSender = {
  id: ID,
  url: "https://agent.example/chat",
  origin: "https://agent.example",
  tab: { id: 3, url: "https://agent.example/chat" },
  frameId: 0,
};

describe("a page's port closing while the person is asked", () => {
  // An agent paying ten times a second with a receipt each is right at its site's request rate:
  // refused, the withdrawal would leave the person a request nobody waits for (approving it
  // would sign and charge a payment never sent).
  it("withdraws the waiting payment of a page that went away even when its site is at its request rate", async () => {
    const withdrawn: string[] = [];
    const page = {
      stipendex_status: async (_params: unknown, context: { origin: string }) => ({
        version: "t",
        origin: context.origin,
      }),
      stipendex_pay: () => new Promise<PaymentAnswer>(() => {}),
      stipendex_withdraw: async (params: { requestId: string }) => {
        withdrawn.push(params.requestId);
        return null;
      },
    } as unknown as PageHandlers;
    const route = createRouter({
      extensionId: ID,
      extensionBaseUrl: "chrome-extension://wallet-id/",
      page,
      ui: {} as UiHandlers,
      pageGuard: new PageGuard(DEFAULT_PAGE_LIMITS, () => 0),
    });
    const listeners: ((message: unknown) => void)[] = [];
    const closers: (() => void)[] = [];
    const port: ServedPort = {
      name: PAGE_PORT,
      sender: PAGE,
      postMessage: () => {},
      onMessage: { addListener: (listener) => listeners.push(listener) },
      onDisconnect: { addListener: (listener) => closers.push(listener) },
      disconnect: () => {},
    };
    servePagePort(port, route);
    const receive = (message: unknown) => {
      for (const listener of listeners) listener(message);
    };
    const challenge = {
      transport: "http",
      url: "https://api.example.com/search",
      method: "GET",
      body: "{}",
      paymentRequiredHeader: null,
    };
    receive({
      id: 1,
      message: { channel: "page", method: "stipendex_pay", params: { requestId: "r1", challenge } },
    });
    // The rest of this minute's requests (an agent's receipts, status and pricing calls).
    for (let i = 2; i <= DEFAULT_PAGE_LIMITS.requests.limit; i++) {
      expect(await route({ channel: "page", method: "stipendex_status" }, PAGE)).toMatchObject({
        ok: true,
      });
    }
    // The tab navigates: its port closes.
    for (const close of closers) close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(withdrawn).toEqual(["r1"]);
    // The page's own withdrawals are counted as any request of it is.
    const asked = { channel: "page", method: "stipendex_withdraw", params: { requestId: "r2" } };
    expect(await route(asked, PAGE)).toMatchObject({ ok: false, error: { code: 4930 } });
  });
});
