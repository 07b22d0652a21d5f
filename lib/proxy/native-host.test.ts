import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { NativeRequest } from "../messages";
import { type ChannelPlace, channelPlace } from "./channel";
import { isProxyError } from "./errors";
import { encodeFrame, FrameDecoder } from "./frame";
import { runNativeHost } from "./native-host";
import { channelWallet, WalletChannel } from "./wallet-channel";

const UPSTREAM = "http://127.0.0.1:4020/mcp";
const uid = process.getuid?.() ?? 0;

/**
 * The native host as the browser runs it, on real Unix sockets; the test
 * plays the wallet's side of native messaging (frames on the host's stdin
 * and stdout), answering each request with `answer`.
 */
function startHost(place: ChannelPlace, answer: (request: NativeRequest) => unknown) {
  const toHost = new PassThrough();
  const fromHost = new PassThrough();
  const seen: NativeRequest[] = [];
  const decoder = new FrameDecoder();
  fromHost.on("data", (chunk: Buffer) => {
    for (const message of decoder.push(chunk)) {
      const request = message as NativeRequest;
      seen.push(request);
      const result = answer(request);
      if (result !== undefined) {
        toHost.write(encodeFrame({ link: request.link, id: request.id, response: result }));
      }
    }
  });
  let ready = () => {};
  // Logged once the socket is listening and no longer anyone's but this user's.
  const listened = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const log = (line: string) => line.startsWith("listening on") && ready();
  const running = runNativeHost({ input: toHost, output: fromHost, place, uid, log });
  return {
    seen,
    running,
    listened,
    /** Sends the host a frame as the wallet, outside `answer` (a late answer). */
    write: (message: unknown) => toHost.write(encodeFrame(message)),
    stop: () => toHost.end(),
  };
}

async function listening(place: ChannelPlace): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if (statSync(place.socket).isSocket()) return;
    } catch {
      // Not yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the native host never listened");
}

function channel(place: ChannelPlace, installed = true) {
  return new WalletChannel({ ...place, uid, installed: async () => installed }, UPSTREAM);
}

async function proxyErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isProxyError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a ProxyError");
}

describe("the native host and the proxy's channel", () => {
  let root: string;
  let place: ChannelPlace;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "stipendex-channel-"));
    place = channelPlace({ STIPENDEX_CHANNEL_DIR: join(root, "channel") }, tmpdir(), uid);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("relays a proxy's request to the wallet, tagged with its connection, and the answer back", async () => {
    const host = startHost(place, (request) => ({ ok: true, result: { echoed: request.params } }));
    await host.listened;
    expect(statSync(place.directory).mode & 0o777).toBe(0o700);
    expect(statSync(place.socket).mode & 0o777).toBe(0o600);
    const proxy = channel(place);
    expect(await proxy.request("stipendex_reportMcpServer", { server: UPSTREAM })).toEqual({
      echoed: { server: UPSTREAM },
    });
    expect(host.seen).toEqual([
      {
        link: 1,
        id: 1,
        upstream: UPSTREAM,
        method: "stipendex_reportMcpServer",
        params: { server: UPSTREAM },
      },
    ]);
    proxy.close();
    host.stop();
    await host.running;
  });

  it("says the wallet is locked, or has no wallet, before any payment is asked", async () => {
    let state = { hasWallet: true, locked: true };
    const host = startHost(place, () => ({ ok: true, result: { version: "t", ...state } }));
    await listening(place);
    const proxy = channel(place);
    expect(await proxyErrorOf(proxy.ready())).toBe("wallet-locked");
    state = { hasWallet: false, locked: true };
    expect(await proxyErrorOf(proxy.ready())).toBe("no-wallet");
    state = { hasWallet: true, locked: false };
    expect(await proxy.ready()).toMatchObject({ locked: false });
    proxy.close();
    host.stop();
    await host.running;
  });

  it("passes the wallet's refusal on with its words", async () => {
    const host = startHost(place, () => ({
      ok: false,
      error: { code: 4001, message: "You declined the payment" },
    }));
    await listening(place);
    const proxy = channel(place);
    await expect(proxy.request("stipendex_pay", {})).rejects.toThrow("You declined the payment");
    proxy.close();
    host.stop();
    await host.running;
  });

  it("withdraws a payment whose call is cancelled while the wallet asks, and never asks for one cancelled before", async () => {
    const challenge = {
      transport: "mcp" as const,
      server: UPSTREAM,
      tool: "web_search",
      arguments: {},
      error: { code: -32402, message: "Payment required", data: { quote: "q" } },
    };
    // The wallet: ready at once; a payment waits for the person until it is withdrawn.
    let decline: ((request: NativeRequest) => void) | undefined;
    const host = startHost(place, (request) => {
      if (request.method === "proxy_status") {
        return { ok: true, result: { version: "t", hasWallet: true, locked: false } };
      }
      if (request.method === "stipendex_withdraw") {
        decline?.(request);
        return { ok: true, result: null };
      }
      return undefined;
    });
    decline = (withdrawal) => {
      const paying = host.seen.find((request) => request.method === "stipendex_pay");
      if (!paying) throw new Error("withdrawn before it was asked");
      const response = { ok: false, error: { code: 4001, message: "withdrawn" } };
      host.write({ link: paying.link, id: paying.id, response });
      expect(withdrawal.params).toEqual({
        requestId: (paying.params as { requestId: string }).requestId,
      });
    };
    await listening(place);
    const proxy = channel(place);
    const wallet = channelWallet(proxy);
    const cancelled = new AbortController();
    const paying = wallet.pay(challenge, cancelled.signal);
    await expect.poll(() => host.seen.map((request) => request.method)).toContain("stipendex_pay");
    cancelled.abort();
    expect(await proxyErrorOf(paying)).toBe("payment-not-made");
    expect(host.seen.map((request) => request.method)).toEqual([
      "proxy_status",
      "stipendex_pay",
      "stipendex_withdraw",
    ]);

    const early = new AbortController();
    early.abort();
    await expect(wallet.pay(challenge, early.signal)).rejects.toThrow(/abort/i);
    expect(host.seen.filter((request) => request.method === "stipendex_pay")).toHaveLength(1);
    proxy.close();
    host.stop();
    await host.running;
  });

  it("withdraws what a proxy still waits for when its connection closes (its desktop app quit)", async () => {
    const host = startHost(place, (request) =>
      request.method === "stipendex_elicit"
        ? { ok: true, result: { action: "decline" } }
        : undefined,
    );
    await listening(place);
    const proxy = channel(place);
    void proxy.request("stipendex_pay", { requestId: "r1", challenge: {} }).catch(() => undefined);
    await proxy.request("stipendex_elicit", { requestId: "r2", server: UPSTREAM, params: {} });
    void proxy.request("stipendex_receipt", { paymentId: "p" }).catch(() => undefined);
    await expect.poll(() => host.seen.length).toBe(3);
    proxy.close();
    await expect.poll(() => host.seen.length).toBe(4);
    expect(host.seen[3]).toEqual({
      link: 1,
      id: 1,
      upstream: UPSTREAM,
      method: "stipendex_withdraw",
      params: { requestId: "r1" },
    });
    host.stop();
    await host.running;
    // Nothing more once the browser has gone.
    expect(host.seen).toHaveLength(4);
  });

  it("rejects what is waiting when the browser closes the host, and removes the socket", async () => {
    const host = startHost(place, () => undefined);
    await listening(place);
    const proxy = channel(place);
    const waiting = proxyErrorOf(proxy.request("stipendex_pay", {}));
    await new Promise((resolve) => setTimeout(resolve, 50));
    host.stop();
    await host.running;
    expect(await waiting).toBe("link-lost");
    expect(() => statSync(place.socket)).toThrow();
  });

  it("tells the proxy to install the link, or to start the browser, when no host listens", async () => {
    expect(await proxyErrorOf(channel(place, false).request("proxy_status"))).toBe(
      "link-not-installed",
    );
    expect(await proxyErrorOf(channel(place, true).request("proxy_status"))).toBe(
      "wallet-not-running",
    );
  });

  it("refuses a channel directory others may open, on both sides", async () => {
    const host = startHost(place, () => undefined);
    await listening(place);
    host.stop();
    await host.running;
    chmodSync(place.directory, 0o755);
    expect(await proxyErrorOf(channel(place).request("proxy_status"))).toBe("channel-unsafe");
    expect(await proxyErrorOf(startHost(place, () => undefined).running)).toBe("channel-unsafe");
  });

  it("leaves a live host's socket alone, and replaces one a dead host left", async () => {
    const first = startHost(place, () => ({ ok: true, result: 1 }));
    await listening(place);
    expect(await proxyErrorOf(startHost(place, () => undefined).running)).toBe("channel-busy");
    first.stop();
    await first.running;
    writeFileSync(place.socket, "");
    const second = startHost(place, () => ({ ok: true, result: 2 }));
    await listening(place);
    const proxy = channel(place);
    expect(await proxy.request("proxy_status")).toBe(2);
    proxy.close();
    second.stop();
    await second.running;
  });
});
