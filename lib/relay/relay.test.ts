// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { TO_PAGE, TO_RELAY, type WireResponse } from "../messages";
import { startRelay } from "./relay";

function freshWindow(): Window {
  const { Window } = globalThis as unknown as { Window: new () => Window };
  return new Window();
}

function nextPageMessage(win: Window): Promise<unknown> {
  return new Promise((resolve) => {
    win.addEventListener("message", function listener(event) {
      if ((event.data as { tag?: string }).tag !== TO_PAGE) return;
      win.removeEventListener("message", listener);
      resolve(event.data);
    });
  });
}

describe("startRelay", () => {
  it("forwards only the page channel, with method and params, and posts the answer back", async () => {
    const win = freshWindow();
    const sent: unknown[] = [];
    startRelay(win, async (message) => {
      sent.push(message);
      return { ok: true, result: "pong" } satisfies WireResponse;
    });
    const answer = nextPageMessage(win);
    win.postMessage(
      { tag: TO_RELAY, id: "1", request: { method: "stipendex_status", params: 5, channel: "ui" } },
      "*",
    );
    expect(await answer).toEqual({ tag: TO_PAGE, id: "1", response: { ok: true, result: "pong" } });
    expect(sent).toEqual([{ channel: "page", method: "stipendex_status", params: 5 }]);
  });

  it("ignores untagged or malformed messages and answers an unreachable wallet with an error", async () => {
    const win = freshWindow();
    const sent: unknown[] = [];
    startRelay(win, async (message) => {
      sent.push(message);
      throw new Error("Extension context invalidated.");
    });
    win.postMessage({ id: "x", request: { method: "a" } }, "*");
    win.postMessage({ tag: TO_RELAY, id: 3, request: { method: "a" } }, "*");
    win.postMessage({ tag: TO_RELAY, id: "y", request: null }, "*");
    const answer = nextPageMessage(win);
    win.postMessage({ tag: TO_RELAY, id: "2", request: { method: "stipendex_status" } }, "*");
    expect(await answer).toMatchObject({
      id: "2",
      response: {
        ok: false,
        error: { code: -32603, message: expect.stringContaining("invalidated") },
      },
    });
    expect(sent).toHaveLength(1);
  });
});
