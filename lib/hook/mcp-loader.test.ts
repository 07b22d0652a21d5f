import { describe, expect, it } from "vitest";
import { createMcpHook } from "./mcp-hook";
import { MCP_HOOK_EVENT, mcpLoader } from "./mcp-loader";

/** A page window and the wallet: injecting runs the MCP script, which announces itself. */
function page(inject: (win: Window) => Promise<unknown>) {
  const win = new EventTarget() as Window;
  let injected = 0;
  const source = mcpLoader(win, () => {
    injected++;
    return inject(win);
  });
  return { win, source, injected: () => injected };
}

const announce = (win: Window, detail: unknown) =>
  win.dispatchEvent(new CustomEvent(MCP_HOOK_EVENT, { detail }));

describe("mcpLoader", () => {
  it("asks the wallet once, and hands out the hook the injected script announced", async () => {
    const hook = createMcpHook();
    const { source, injected } = page(async (win) => announce(win, hook));
    expect(source.loaded()).toBeUndefined();
    const [first, second] = await Promise.all([source.load(), source.load()]);
    expect(first).toBe(hook);
    expect(second).toBe(hook);
    expect(source.loaded()).toBe(hook);
    expect(injected()).toBe(1);
  });

  it("ignores an announcement that is not a hook", async () => {
    const hook = createMcpHook();
    const { source } = page(async (win) => {
      announce(win, { fetch: "not a function" });
      announce(win, undefined);
      announce(win, hook);
    });
    expect(await source.load()).toBe(hook);
  });

  it("fails when the wallet cannot inject, and asks again on the next request", async () => {
    const hook = createMcpHook();
    let refuse = true;
    const { source, injected } = page(async (win) => {
      if (refuse) throw new Error("Wallet unreachable");
      announce(win, hook);
    });
    await expect(source.load()).rejects.toThrow("Wallet unreachable");
    refuse = false;
    expect(await source.load()).toBe(hook);
    expect(injected()).toBe(2);
  });
});
