// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { installFetchHook } from "./fetch";

type Win = Window & typeof globalThis;

describe("installFetchHook", () => {
  it("returns the native fetch's own Response and rejection, called on the window", async () => {
    const calls: { self: unknown; args: unknown[] }[] = [];
    const response = new Response("body", { status: 201 });
    const failure = new TypeError("Failed to fetch");
    const win = {
      fetch(this: unknown, ...args: unknown[]) {
        calls.push({ self: this, args });
        return args[0] === "bad" ? Promise.reject(failure) : Promise.resolve(response);
      },
    } as unknown as Win;
    installFetchHook(win);
    const init = { method: "POST", body: "x" };
    expect(await win.fetch("https://a.example/", init)).toBe(response);
    await expect(win.fetch("bad")).rejects.toBe(failure);
    expect(calls[0]).toEqual({ self: win, args: ["https://a.example/", init] });
    expect(win.fetch.name).toBe("fetch");
  });
});
