import { describe, expect, it } from "vitest";
import {
  channelPlace,
  readChannelRequest,
  readChannelResponse,
  readNativeRequest,
  readNativeResponse,
} from "./channel";

describe("the local channel's messages", () => {
  const request = { id: 3, upstream: "http://127.0.0.1:9/mcp", method: "proxy_status" };

  it("read a proxy's request and the native host's copy of it", () => {
    expect(readChannelRequest(request)).toEqual(request);
    expect(readNativeRequest({ ...request, link: 1 })).toEqual({ ...request, link: 1 });
    expect(readNativeRequest(request)).toBeUndefined();
  });

  it("refuse a method the proxy may not ask", () => {
    expect(readChannelRequest({ ...request, method: "ui_exportKey" })).toBeUndefined();
    expect(readChannelRequest({ ...request, method: "stipendex_loadMcp" })).toBeUndefined();
  });

  it("read answers, ok or not, and refuse anything else", () => {
    const ok = { id: 3, response: { ok: true, result: { locked: false } } };
    const no = { id: 3, response: { ok: false, error: { code: 4900, message: "Locked" } } };
    expect(readChannelResponse(ok)).toEqual(ok);
    expect(readNativeResponse({ ...no, link: 2 })).toEqual({ ...no, link: 2 });
    expect(readChannelResponse({ id: -1, response: ok.response })).toBeUndefined();
    expect(readChannelResponse({ id: 1, response: { ok: "yes" } })).toBeUndefined();
  });
});

describe("channelPlace", () => {
  it("prefers the override, then the user's runtime directory, then a per-uid temp directory", () => {
    expect(
      channelPlace({ STIPENDEX_CHANNEL_DIR: "/x", XDG_RUNTIME_DIR: "/run/user/5" }, "/tmp", 5),
    ).toEqual({ directory: "/x", socket: "/x/wallet.sock" });
    expect(channelPlace({ XDG_RUNTIME_DIR: "/run/user/5" }, "/tmp", 5).directory).toBe(
      "/run/user/5/stipendex",
    );
    expect(channelPlace({}, "/tmp", 5).socket).toBe("/tmp/stipendex-5/wallet.sock");
  });
});
