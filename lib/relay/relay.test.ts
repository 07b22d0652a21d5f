// @vitest-environment happy-dom
import { describe, expect, it, vi } from "vitest";
import { createBridge } from "../hook/bridge";
import { RELAY_STARTED, TO_PAGE, TO_RELAY, type WireResponse } from "../messages";
import { PortClosedError } from "./port-sender";
import { type SendToBackground, sendWithRetry, startRelay } from "./relay";

function freshWindow(): Window {
  const { Window } = globalThis as unknown as { Window: new () => Window };
  return new Window();
}

/** What the hook's bridge does: a message as JSON text in an event on the window. */
function fromHook(win: Window, message: unknown): void {
  win.dispatchEvent(new CustomEvent(TO_RELAY, { detail: JSON.stringify(message) }));
}

function pageMessages(win: Window): unknown[] {
  const seen: unknown[] = [];
  win.addEventListener(TO_PAGE, (event) => {
    seen.push(JSON.parse((event as CustomEvent<string>).detail));
  });
  return seen;
}

function nextPageMessage(win: Window): Promise<unknown> {
  return new Promise((resolve) => {
    win.addEventListener(TO_PAGE, function listener(event) {
      win.removeEventListener(TO_PAGE, listener);
      resolve(JSON.parse((event as CustomEvent<string>).detail));
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
    fromHook(win, {
      id: "1",
      request: { method: "stipendex_status", params: 5, channel: "ui" },
    });
    expect(await answer).toEqual({ id: "1", response: { ok: true, result: "pong" } });
    expect(sent).toEqual([{ channel: "page", method: "stipendex_status", params: 5 }]);
  });

  it("forwards a notification, retried like any request, and posts no answer back", async () => {
    const win = freshWindow();
    const sent: unknown[] = [];
    let stopped = true;
    startRelay(
      win,
      async (message) => {
        sent.push(message);
        if (stopped) {
          stopped = false;
          throw new Error("Could not establish connection. Receiving end does not exist.");
        }
        return { ok: true, result: null } satisfies WireResponse;
      },
      { tries: 3, firstDelayMs: 1 },
    );
    const posted = pageMessages(win);
    fromHook(win, {
      id: "n",
      request: { method: "stipendex_receipt", params: { paymentId: "p" } },
      noAnswer: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toHaveLength(2);
    expect(posted).toEqual([]);
  });

  it("ignores malformed messages and answers an invalidated extension with an error at once", async () => {
    const win = freshWindow();
    const sent: unknown[] = [];
    startRelay(win, async (message) => {
      sent.push(message);
      throw new Error("Extension context invalidated.");
    });
    fromHook(win, { request: { method: "a" } });
    fromHook(win, { id: 3, request: { method: "a" } });
    fromHook(win, { id: "y", request: null });
    const answer = nextPageMessage(win);
    fromHook(win, { id: "2", request: { method: "stipendex_status" } });
    expect(await answer).toMatchObject({
      id: "2",
      response: {
        ok: false,
        error: { code: -32603, message: expect.stringContaining("invalidated") },
      },
    });
    expect(sent).toHaveLength(1);
  });

  it("ignores events without JSON text and window messages, and forwards during the dispatch itself", () => {
    const win = freshWindow();
    const sent: unknown[] = [];
    startRelay(win, (message) => {
      sent.push(message);
      return new Promise<WireResponse>(() => undefined);
    });
    win.dispatchEvent(new CustomEvent(TO_RELAY, { detail: { id: "o" } }));
    win.dispatchEvent(new CustomEvent(TO_RELAY, { detail: "{not json" }));
    win.dispatchEvent(new CustomEvent(TO_RELAY));
    win.postMessage({ id: "m", request: { method: "stipendex_status" } }, "*");
    expect(sent).toEqual([]);
    // A postMessage would reach the relay in a later task; the event runs its listener now.
    fromHook(win, { id: "s", request: { method: "stipendex_status" } });
    expect(sent).toEqual([{ channel: "page", method: "stipendex_status", params: undefined }]);
  });

  it("sends the same message again when the worker was stopped mid-request, and answers once", async () => {
    const win = freshWindow();
    const sent: unknown[] = [];
    startRelay(
      win,
      async (message) => {
        sent.push(message);
        if (sent.length < 3) {
          throw new Error("The message port closed before a response was received.");
        }
        return { ok: true, result: { paymentId: "p1" } } satisfies WireResponse;
      },
      { tries: 5, firstDelayMs: 1 },
    );
    const answer = nextPageMessage(win);
    const params = { requestId: "req-7", challenge: { transport: "http" } };
    fromHook(win, { id: "9", request: { method: "stipendex_pay", params } });
    expect(await answer).toEqual({
      id: "9",
      response: { ok: true, result: { paymentId: "p1" } },
    });
    const expected = { channel: "page", method: "stipendex_pay", params };
    expect(sent).toEqual([expected, expected, expected]);
  });
});

describe("startRelay, in a page whose hook is already waiting", () => {
  it("says it started, and the hook sends what it still waits on again, answered once", async () => {
    const win = freshWindow();
    const hook = createBridge(win as Window & typeof globalThis);
    const toGone: unknown[] = [];
    // The old relay: its extension was reloaded, and nothing it carried is ever answered.
    startRelay(win, (message) => {
      toGone.push(message);
      return new Promise<WireResponse>(() => undefined);
    });
    let answers = 0;
    const params = {
      requestId: "r1",
      challenge: {
        transport: "http" as const,
        url: "https://a.example/",
        method: "GET",
        body: "{}",
        paymentRequiredHeader: null,
      },
    };
    const paid = hook.request({ method: "stipendex_pay", params });
    void paid.then(() => answers++);
    const status = hook.request({ method: "stipendex_status", params: undefined });
    hook.notify({
      method: "stipendex_receipt",
      params: { paymentId: "p0", status: 200, receipt: null },
    });
    expect(toGone).toHaveLength(3);

    const toNew: unknown[] = [];
    const announced = pageMessages(win);
    startRelay(win, async (message) => {
      toNew.push(message);
      return { ok: true, result: "answered" } satisfies WireResponse;
    });
    expect(announced).toEqual([RELAY_STARTED]);
    expect(await paid).toBe("answered");
    expect(await status).toBe("answered");
    // Both waiting requests, by their own ids (the background resumes a payment by requestId);
    // not the notification, which nobody waits on.
    expect(toNew.map((message) => (message as { method: string }).method).sort()).toEqual([
      "stipendex_pay",
      "stipendex_status",
    ]);
    expect(toNew).toContainEqual({ channel: "page", method: "stipendex_pay", params });

    // Answered requests are not sent again when another relay starts.
    startRelay(win, async (message) => {
      toNew.push(message);
      return { ok: true, result: "again" } satisfies WireResponse;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(toNew).toHaveLength(2);
    expect(answers).toBe(1);
  });
});

describe("startRelay, a request the page sends again", () => {
  // Black-box review: a page dispatching RELAY_STARTED over and over had its hook resend its
  // payments until the site's rate limit refused a copy, and that refusal answered the original
  // (same id): the fetch got its 402 while the background went on to sign and charge.
  it("sends on one copy of an id at a time, and the first answer is the background's to it", async () => {
    const win = freshWindow();
    const hook = createBridge(win as Window & typeof globalThis);
    const sent: unknown[] = [];
    let answer: (response: WireResponse) => void = () => undefined;
    startRelay(win, (message) => {
      sent.push(message);
      return sent.length === 1
        ? new Promise<WireResponse>((resolve) => {
            answer = resolve;
          })
        : Promise.resolve({ ok: false, error: { code: 4930, message: "Too many requests" } });
    });
    const status = hook.request({ method: "stipendex_status", params: undefined });
    for (let i = 0; i < 50; i++) {
      win.dispatchEvent(new CustomEvent(TO_PAGE, { detail: JSON.stringify(RELAY_STARTED) }));
    }
    expect(sent).toHaveLength(1);
    answer({ ok: true, result: "the background's" });
    expect(await status).toBe("the background's");
  });

  it("sends an id on again once its answer is in", async () => {
    const win = freshWindow();
    const sent: unknown[] = [];
    startRelay(win, async (message) => {
      sent.push(message);
      return { ok: true, result: sent.length } satisfies WireResponse;
    });
    const answers = pageMessages(win);
    const again = { id: "7", request: { method: "stipendex_status" } };
    fromHook(win, again);
    fromHook(win, again);
    await new Promise((resolve) => setTimeout(resolve, 0));
    fromHook(win, again);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toHaveLength(2);
    expect(answers).toEqual([
      { id: "7", response: { ok: true, result: 1 } },
      { id: "7", response: { ok: true, result: 2 } },
    ]);
  });
});

describe("startRelay, a payment not made", () => {
  // The hook hands the page the server's answer as it came (a 402): why is said in the console.
  it("says in the page's console why the wallet did not pay", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const win = freshWindow();
      const refusal = { code: 4920, message: "Quote lives 10 s; allowed 30–600 s" };
      startRelay(win, async () => ({ ok: false, error: refusal }) satisfies WireResponse);
      const answer = nextPageMessage(win);
      fromHook(win, { id: "1", request: { method: "stipendex_pay", params: {} } });
      await answer;
      expect(warn).toHaveBeenCalledWith(`Stipendex Wallet did not pay: ${refusal.message}`);
      warn.mockClear();
      const status = nextPageMessage(win);
      fromHook(win, { id: "2", request: { method: "stipendex_status", params: {} } });
      await status;
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});

describe("sendWithRetry", () => {
  it("gives up after the last try with the transport's error, waiting longer each time", async () => {
    const at: number[] = [];
    const send: SendToBackground = async () => {
      at.push(Date.now());
      throw new Error("Could not establish connection. Receiving end does not exist.");
    };
    await expect(sendWithRetry(send, { m: 1 }, { tries: 4, firstDelayMs: 20 })).rejects.toThrow(
      "Receiving end does not exist",
    );
    expect(at).toHaveLength(4);
    const gaps = at.slice(1).map((t, i) => t - (at[i] ?? t));
    expect(gaps[0]).toBeGreaterThanOrEqual(15);
    expect(gaps[2]).toBeGreaterThanOrEqual(70);
  });

  it("does not retry an answer, even an error answer, nor an invalidated extension", async () => {
    let calls = 0;
    const refusal: WireResponse = { ok: false, error: { code: 4001, message: "declined" } };
    expect(
      await sendWithRetry(
        async () => {
          calls++;
          return refusal;
        },
        {},
        { tries: 5, firstDelayMs: 1 },
      ),
    ).toEqual(refusal);
    expect(calls).toBe(1);
    await expect(
      sendWithRetry(
        async () => {
          calls++;
          throw new Error("Extension context invalidated.");
        },
        {},
        { tries: 5, firstDelayMs: 1 },
      ),
    ).rejects.toThrow("invalidated");
    expect(calls).toBe(2);
  });

  // Chrome stops an idle worker after 30 s, Firefox an idle event page: while the person reads
  // the window nothing else reaches the background, and each stop drops the payment it held.
  it("sends a request the background held before it stopped again, uncounted, while patience lasts", async () => {
    const drops = 8;
    let sends = 0;
    const send: SendToBackground = async () => {
      sends++;
      await new Promise((resolve) => setTimeout(resolve, 12));
      if (sends <= drops) throw new PortClosedError("stopped while the person decided");
      return { ok: true, result: { paymentId: "p" } };
    };
    const policy = { tries: 3, firstDelayMs: 1, heldMs: 10, patienceMs: 60_000 };
    expect(await sendWithRetry(send, {}, policy)).toEqual({ ok: true, result: { paymentId: "p" } });
    expect(sends).toBe(drops + 1);
  });

  it("counts a port that closes at once, and stops resending once patience is out", async () => {
    let sends = 0;
    const closing =
      (after: number): SendToBackground =>
      async () => {
        sends++;
        await new Promise((resolve) => setTimeout(resolve, after));
        throw new PortClosedError("closed");
      };
    const quick = { tries: 3, firstDelayMs: 1, heldMs: 50, patienceMs: 60_000 };
    await expect(sendWithRetry(closing(1), {}, quick)).rejects.toThrow("closed");
    expect(sends).toBe(3);
    sends = 0;
    const impatient = { tries: 3, firstDelayMs: 1, heldMs: 5, patienceMs: 40 };
    await expect(sendWithRetry(closing(12), {}, impatient)).rejects.toThrow("closed");
    // Held each time: resent until 40 ms had passed, then counted as the tries allow.
    expect(sends).toBeGreaterThan(3);
    expect(sends).toBeLessThan(10);
  });
});
