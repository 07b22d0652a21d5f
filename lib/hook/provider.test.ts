// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import {
  ANNOUNCE_EVENT,
  PROVIDER_VERSION,
  REQUEST_PROVIDER_EVENT,
  TO_PAGE,
  TO_RELAY,
} from "../messages";
import { createBridge } from "./bridge";
import { hookInstalled, installProvider } from "./provider";
import { createWalletLink } from "./wallet-link";

type Win = Window & typeof globalThis;

function install(win: Win) {
  const { request, notify } = createBridge(win);
  return installProvider(win, request, createWalletLink(request, notify));
}

function freshWindow(): Win {
  // Each test gets its own happy-dom window so `stipendex` can be defined again.
  const { Window } = globalThis as unknown as { Window: new () => Win };
  return new Window();
}

describe("installProvider", () => {
  it("defines a frozen, non-writable window.stipendex", () => {
    const win = freshWindow();
    const provider = install(win);
    const target = win as unknown as { stipendex: unknown };
    expect(target.stipendex).toBe(provider);
    expect(provider).toMatchObject({ isStipendex: true, version: PROVIDER_VERSION });
    expect(provider.errorCodes).toMatchObject({ UserRejected: 4001, InvalidQuote: 4920 });
    expect(Object.isFrozen(provider.errorCodes)).toBe(true);
    expect(Object.isFrozen(provider)).toBe(true);
    expect(() => {
      target.stipendex = {};
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(win, "stipendex", { value: 1 })).toThrow(TypeError);
    expect(Reflect.deleteProperty(win, "stipendex")).toBe(false);
    expect(target.stipendex).toBe(provider);
  });

  // Black-box review (Firefox): after the extension was reloaded, one fetch was asked about twice.
  it("tells a second hook that one is already at work in the window", () => {
    const win = freshWindow();
    expect(hookInstalled(win)).toBe(false);
    install(win);
    expect(hookInstalled(win)).toBe(true);
  });

  it("announces itself at install and again on request", () => {
    const win = freshWindow();
    const seen: unknown[] = [];
    win.addEventListener(ANNOUNCE_EVENT, (event) => seen.push((event as CustomEvent).detail));
    const provider = install(win);
    expect(seen).toHaveLength(1);
    win.dispatchEvent(new win.Event(REQUEST_PROVIDER_EVENT));
    expect(seen).toHaveLength(2);
    expect(seen[1]).toMatchObject({ info: { rdns: "dev.stipendex.wallet" }, provider });
  });

  it("sends requests to the relay and settles them with the relay's answer", async () => {
    const win = freshWindow();
    const provider = install(win);
    win.addEventListener(TO_RELAY, (event) => {
      const data = JSON.parse((event as CustomEvent<string>).detail) as { id: string };
      const answer = {
        id: data.id,
        response: { ok: false, error: { code: 4001, message: "no" } },
      };
      win.dispatchEvent(new win.CustomEvent(TO_PAGE, { detail: JSON.stringify(answer) }));
    });
    await expect(
      provider.request({ method: "stipendex_status", params: undefined }),
    ).rejects.toMatchObject({ name: "ProviderRpcError", code: 4001, message: "no" });
    await expect(provider.pay({ quote: {} })).rejects.toMatchObject({ code: 4001 });
  });
});
