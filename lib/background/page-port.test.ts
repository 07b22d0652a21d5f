import { describe, expect, it } from "vitest";
import { PAGE_PORT, type PortResponse, type WireResponse } from "../messages";
import { type ServedPort, servePagePort } from "./page-port";
import type { MessageSender } from "./sender";

function servedPort(name: string, sender?: MessageSender) {
  const posted: PortResponse[] = [];
  const listeners: ((message: unknown) => void)[] = [];
  const closers: (() => void)[] = [];
  let disconnected = false;
  const port: ServedPort = {
    name,
    ...(sender ? { sender } : {}),
    postMessage: (message) => posted.push(message),
    onMessage: { addListener: (listener) => listeners.push(listener) },
    onDisconnect: { addListener: (listener) => closers.push(listener) },
    disconnect: () => {
      disconnected = true;
    },
  };
  return {
    port,
    posted,
    receive: (message: unknown) => {
      for (const listener of listeners) listener(message);
    },
    /** The page closes its end. */
    close: () => {
      for (const closer of closers) closer();
    },
    disconnected: () => disconnected,
  };
}

const PAGE: MessageSender = { url: "https://agent.example/", origin: "https://agent.example" };

describe("servePagePort", () => {
  it("routes each request with the sender the browser attached to the port, and answers by id", async () => {
    const seen: [unknown, MessageSender][] = [];
    const route = async (message: unknown, sender: MessageSender): Promise<WireResponse> => {
      seen.push([message, sender]);
      return { ok: true, result: "done" };
    };
    const served = servedPort(PAGE_PORT, PAGE);
    servePagePort(served.port, route);
    served.receive({ id: 7, message: { channel: "page", method: "stipendex_status" } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([[{ channel: "page", method: "stipendex_status" }, PAGE]]);
    expect(served.posted).toEqual([{ id: 7, response: { ok: true, result: "done" } }]);
  });

  it("withdraws the payments and elicitations still waiting when the page closes its end, and only those", async () => {
    const seen: unknown[] = [];
    const answers = new Map<string, () => void>();
    const route = (message: unknown): Promise<WireResponse> => {
      seen.push(message);
      const { method, params } = message as { method: string; params?: { requestId?: string } };
      if (method === "stipendex_withdraw") return Promise.resolve({ ok: true, result: null });
      return new Promise((resolve) =>
        answers.set(params?.requestId ?? method, () => resolve({ ok: true, result: "done" })),
      );
    };
    const served = servedPort(PAGE_PORT, PAGE);
    servePagePort(served.port, route);
    const ask = (id: number, method: string, requestId: string) =>
      served.receive({ id, message: { channel: "page", method, params: { requestId } } });
    ask(1, "stipendex_pay", "answered");
    ask(2, "stipendex_pay", "waiting");
    ask(3, "stipendex_elicit", "asking");
    served.receive({ id: 4, message: { channel: "page", method: "stipendex_status" } });
    answers.get("answered")?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    served.close();
    const withdrawn = seen.filter(
      (message) => (message as { method: string }).method === "stipendex_withdraw",
    );
    expect(withdrawn).toEqual([
      { channel: "page", method: "stipendex_withdraw", params: { requestId: "waiting" } },
      { channel: "page", method: "stipendex_withdraw", params: { requestId: "asking" } },
    ]);
  });

  it("ignores what is not a numbered request", async () => {
    let routed = 0;
    const served = servedPort(PAGE_PORT, PAGE);
    servePagePort(served.port, async () => {
      routed++;
      return { ok: true, result: null };
    });
    served.receive({ message: {} });
    served.receive("stipendex_pay");
    served.receive({ id: "1", message: {} });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(routed).toBe(0);
  });

  it("closes a port of another name, or one the browser attached no sender to", () => {
    const other = servedPort("something-else", PAGE);
    servePagePort(other.port, async () => ({ ok: true, result: null }));
    expect(other.disconnected()).toBe(true);
    const anonymous = servedPort(PAGE_PORT);
    servePagePort(anonymous.port, async () => ({ ok: true, result: null }));
    expect(anonymous.disconnected()).toBe(true);
  });
});
