import { describe, expect, it, vi } from "vitest";
import type { PortRequest, PortResponse } from "../messages";
import {
  EXTENSION_CHECK_MS,
  ExtensionGoneError,
  PortClosedError,
  portSender,
  type RelayPort,
} from "./port-sender";
import { sendWithRetry } from "./relay";

/** A port whose far end the test plays: it sees what was posted and answers or closes. */
function fakePort() {
  const posted: PortRequest[] = [];
  const messageListeners: ((message: PortResponse) => void)[] = [];
  const disconnectListeners: (() => void)[] = [];
  let closed = false;
  const port: RelayPort = {
    postMessage: (message) => {
      if (closed) throw new Error("Attempting to use a disconnected port object");
      posted.push(message);
    },
    onMessage: { addListener: (listener) => messageListeners.push(listener) },
    onDisconnect: { addListener: (listener) => disconnectListeners.push(listener) },
  };
  const posted_ = (index: number) => {
    const request = posted[index];
    if (!request) throw new Error(`nothing was posted at ${index}`);
    return request;
  };
  return {
    port,
    posted: posted_,
    /** Answers the `index`th request posted on this port. */
    answer: (index: number, result: unknown) => {
      const { id } = posted_(index);
      for (const listener of messageListeners) listener({ id, response: { ok: true, result } });
    },
    close: () => {
      closed = true;
      for (const listener of disconnectListeners) listener();
    },
  };
}

describe("portSender", () => {
  it("opens one port for many requests and gives each its own answer, in any order", async () => {
    let opened = 0;
    const port = fakePort();
    const send = portSender(() => {
      opened++;
      return port.port;
    });
    const first = send({ method: "a" });
    const second = send({ method: "b" });
    expect(port.posted(0).message).toEqual({ method: "a" });
    port.answer(1, "B");
    port.answer(0, "A");
    expect(await first).toEqual({ ok: true, result: "A" });
    expect(await second).toEqual({ ok: true, result: "B" });
    expect(opened).toBe(1);
  });

  it("rejects what a closing port dropped, and opens a fresh port for the next request", async () => {
    const first = fakePort();
    const second = fakePort();
    const ports = [first, second];
    const send = portSender(() => {
      const next = ports.shift();
      if (!next) throw new Error("a third port was opened");
      return next.port;
    });
    const dropped = send({ method: "pay" });
    first.close();
    await expect(dropped).rejects.toBeInstanceOf(PortClosedError);
    const again = send({ method: "pay" });
    expect(ports).toHaveLength(0);
    second.answer(0, "paid");
    expect(await again).toEqual({ ok: true, result: "paid" });
  });

  it("rejects when the browser refuses to connect (the extension was reloaded), and tries again next time", async () => {
    let refuse = true;
    const port = fakePort();
    const send = portSender(() => {
      if (refuse) throw new Error("Extension context invalidated.");
      return port.port;
    });
    await expect(send({ method: "x" })).rejects.toThrow(/Extension context invalidated/);
    refuse = false;
    const answered = send({ method: "x" });
    port.answer(0, 1);
    expect(await answered).toEqual({ ok: true, result: 1 });
  });

  // Black-box review (Chromium, chrome.runtime.reload() during a burst): one request sent as the
  // extension reloaded got neither an answer nor a closed port, and its page's fetch never ended.
  it("gives up what waits, for good, once its extension is gone, though the port never closes", async () => {
    vi.useFakeTimers();
    try {
      let alive = true;
      const port = fakePort();
      let opened = 0;
      const send = portSender(
        () => {
          opened++;
          return port.port;
        },
        () => alive,
      );
      let outcome: unknown;
      const waiting = sendWithRetry(send, { method: "a" }, { tries: 5, firstDelayMs: 1 }).catch(
        (error: unknown) => {
          outcome = error;
        },
      );
      await vi.advanceTimersByTimeAsync(EXTENSION_CHECK_MS * 3);
      expect(outcome).toBeUndefined();
      alive = false;
      await vi.advanceTimersByTimeAsync(EXTENSION_CHECK_MS);
      await waiting;
      expect(outcome).toBeInstanceOf(ExtensionGoneError);
      // Final: not sent again (the relay answers the page "Wallet unreachable" at once).
      expect(opened).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
