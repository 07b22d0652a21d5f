import { describe, expect, it } from "vitest";
import { ErrorCode } from "../messages";
import { createRouter, type PageHandlers, type UiHandlers } from "./router";
import { RpcError } from "./rpc-error";

const ID = "walletid";
const BASE = `chrome-extension://${ID}/`;
const page = { id: ID, url: "https://agent.example/app", tab: { id: 1 }, frameId: 0 };
const ui = { id: ID, url: `${BASE}popup.html` };

function router() {
  return createRouter({
    extensionId: ID,
    extensionBaseUrl: BASE,
    // Only the methods these tests call; the rest are never reached.
    page: {
      stipendex_status: async (_params: undefined, context: { origin: string }) => ({
        version: "t",
        origin: context.origin,
      }),
    } as unknown as PageHandlers,
    ui: {
      ui_status: async (_params: undefined, context: { url: string }) => {
        if (context.url.endsWith("fail.html")) throw new RpcError(ErrorCode.Locked, "locked");
        return { version: "t", origin: context.url };
      },
    } as unknown as UiHandlers,
  });
}

describe("createRouter", () => {
  it("answers a page with the origin the browser reported, whatever the payload claims", async () => {
    const answer = await router()(
      { channel: "page", method: "stipendex_status", params: { origin: "https://bank.example" } },
      page,
    );
    expect(answer).toEqual({ ok: true, result: { version: "t", origin: "https://agent.example" } });
  });

  it("refuses UI methods from a web page, even through the ui channel", async () => {
    const answer = await router()({ channel: "ui", method: "ui_status", params: undefined }, page);
    expect(answer).toMatchObject({ ok: false, error: { code: ErrorCode.Unauthorized } });
  });

  it("refuses page methods from senders that are not web pages", async () => {
    const answer = await router()(
      { channel: "page", method: "stipendex_status", params: undefined },
      { id: "someone-else", url: "https://agent.example/" },
    );
    expect(answer).toMatchObject({ ok: false, error: { code: ErrorCode.Unauthorized } });
  });

  it("reports unknown methods, including inherited property names", async () => {
    for (const method of ["ui_status", "toString", "__proto__", "stipendex_nope"]) {
      const answer = await router()({ channel: "page", method, params: undefined }, page);
      expect(answer).toMatchObject({ ok: false, error: { code: ErrorCode.MethodNotFound } });
    }
  });

  it("rejects malformed messages without throwing", async () => {
    for (const message of [
      null,
      42,
      "x",
      {},
      { channel: "admin", method: "x" },
      { channel: "page" },
    ]) {
      const answer = await router()(message, page);
      expect(answer).toMatchObject({ ok: false, error: { code: ErrorCode.InvalidRequest } });
    }
  });

  it("passes handler errors on with their numbered code", async () => {
    const answer = await router()(
      { channel: "ui", method: "ui_status", params: undefined },
      { id: ID, url: `${BASE}fail.html` },
    );
    expect(answer).toEqual({ ok: false, error: { code: ErrorCode.Locked, message: "locked" } });
    const okAnswer = await router()({ channel: "ui", method: "ui_status", params: undefined }, ui);
    expect(okAnswer).toMatchObject({ ok: true });
  });
});
