import { beforeEach, describe, expect, it } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { callWallet } from "../../../lib/ui/client";
import { installFakeBackground } from "./fake-background";

describe("installFakeBackground", () => {
  beforeEach(() => fakeBrowser.reset());
  it("answers through the real client and logs the calls", async () => {
    const calls = installFakeBackground({
      ui_setAutoLock: ({ minutes }) => ({
        hasWallet: true,
        locked: false,
        autoLockMinutes: minutes,
      }),
      ui_lock: () => {
        throw new Error("vault busy");
      },
    });
    const state = await callWallet({ method: "ui_setAutoLock", params: { minutes: 7 } });
    expect(state.autoLockMinutes).toBe(7);
    await expect(callWallet({ method: "ui_lock", params: undefined })).rejects.toThrow(
      "vault busy",
    );
    await expect(callWallet({ method: "ui_getPolicy", params: undefined })).rejects.toThrow(
      "no ui_getPolicy",
    );
    expect(calls.map((c) => c.method)).toEqual(["ui_setAutoLock", "ui_lock", "ui_getPolicy"]);
    expect(calls[0]?.params).toEqual({ minutes: 7 });
  });
});
