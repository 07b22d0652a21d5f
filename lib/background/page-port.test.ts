import { describe, expect, it } from "vitest";
import { PAGE_PORT, type PortResponse, type WireResponse } from "../messages";
import { type ServedPort, servePagePort } from "./page-port";
import type { MessageSender } from "./sender";

function servedPort(name: string, sender?: MessageSender) {
  const posted: PortResponse[] = [];
  const listeners: ((message: unknown) => void)[] = [];
  let disconnected = false;
  const port: ServedPort = {
    name,
    ...(sender ? { sender } : {}),
    postMessage: (message) => posted.push(message),
    onMessage: { addListener: (listener) => listeners.push(listener) },
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
