import { describe, expect, it } from "vitest";
import type { ChannelRequest, NativeResponse, WireResponse } from "../messages";
import { NativeLink, type NativePort } from "./native-link";

/** A port as the browser hands it out: the test plays the native host's side. */
function hostPort() {
  const messageListeners: ((message: unknown) => void)[] = [];
  const disconnectListeners: (() => void)[] = [];
  const sent: NativeResponse[] = [];
  const port: NativePort = {
    postMessage: (message) => sent.push(message),
    onMessage: { addListener: (listener) => messageListeners.push(listener) },
    onDisconnect: { addListener: (listener) => disconnectListeners.push(listener) },
  };
  return {
    port,
    sent,
    fromHost: (message: unknown) => {
      for (const listener of messageListeners) listener(message);
    },
    disconnect: () => {
      for (const listener of disconnectListeners) listener();
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("NativeLink", () => {
  it("answers each request on the connection it came from", async () => {
    const host = hostPort();
    const asked: ChannelRequest[] = [];
    const link = new NativeLink({
      connect: () => host.port,
      route: async (request): Promise<WireResponse> => {
        asked.push(request);
        return { ok: true, result: request.id * 10 };
      },
    });
    link.ensure();
    host.fromHost({ link: 2, id: 7, upstream: "http://127.0.0.1:9/mcp", method: "proxy_status" });
    await settle();
    expect(asked).toEqual([{ id: 7, upstream: "http://127.0.0.1:9/mcp", method: "proxy_status" }]);
    expect(host.sent).toEqual([{ link: 2, id: 7, response: { ok: true, result: 70 } }]);
  });

  // As a page's port: the proxies behind a host that died cannot use what the person would approve.
  it("withdraws what its proxies still wait for when the host goes away, and nothing answered", async () => {
    const host = hostPort();
    const routed: ChannelRequest[] = [];
    let answer: (response: WireResponse) => void = () => undefined;
    const link = new NativeLink({
      connect: () => host.port,
      route: (request) => {
        routed.push(request);
        if (request.method === "stipendex_elicit") return Promise.resolve({ ok: true, result: {} });
        return new Promise((resolve) => {
          answer = resolve;
        });
      },
    });
    link.ensure();
    const upstream = "https://mcp.example.com/mcp";
    host.fromHost({
      link: 1,
      id: 1,
      upstream,
      method: "stipendex_elicit",
      params: { requestId: "e1" },
    });
    host.fromHost({
      link: 1,
      id: 2,
      upstream,
      method: "stipendex_pay",
      params: { requestId: "r1" },
    });
    await settle();
    host.disconnect();
    await settle();
    expect(routed.map((r) => [r.method, r.upstream, r.params])).toEqual([
      ["stipendex_elicit", upstream, { requestId: "e1" }],
      ["stipendex_pay", upstream, { requestId: "r1" }],
      ["stipendex_withdraw", upstream, { requestId: "r1" }],
    ]);
    answer({ ok: false, error: { code: 4001, message: "withdrawn" } });
  });

  it("ignores what is not a request", async () => {
    const host = hostPort();
    let routed = 0;
    const link = new NativeLink({
      connect: () => host.port,
      route: async () => {
        routed++;
        return { ok: true, result: null };
      },
    });
    link.ensure();
    host.fromHost({ link: 1, id: 1, upstream: "x", method: "ui_exportKey" });
    host.fromHost("hello");
    await settle();
    expect(routed).toBe(0);
  });

  it("connects once while open, and again after the host drops", () => {
    const hosts = [hostPort(), hostPort()];
    let connects = 0;
    const link = new NativeLink({
      connect: () => {
        const host = hosts[connects++];
        if (!host) throw new Error("no more ports");
        return host.port;
      },
      route: async () => ({ ok: true, result: null }),
    });
    link.ensure();
    link.ensure();
    expect(connects).toBe(1);
    hosts[0]?.disconnect();
    link.ensure();
    link.ensure();
    expect(connects).toBe(2);
  });

  it("stays closed when the browser cannot connect, and tries again later", () => {
    let tries = 0;
    const link = new NativeLink({
      connect: () => {
        tries++;
        throw new Error("Native messaging is not available");
      },
      route: async () => ({ ok: true, result: null }),
    });
    link.ensure();
    link.ensure();
    expect(tries).toBe(2);
  });
});
