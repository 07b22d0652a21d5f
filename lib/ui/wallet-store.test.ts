import { beforeEach, describe, expect, it } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { installFakeBackground } from "../../tests/unit-support/ui/fake-background";
import type { WalletState } from "../messages";
import { createWalletStore } from "./wallet-store";

describe("wallet store", () => {
  let state: WalletState;
  beforeEach(() => {
    fakeBrowser.reset();
    state = { hasWallet: false, locked: true, autoLockMinutes: 15 };
  });

  it("creates, locks and unlocks through the background", async () => {
    const calls = installFakeBackground({
      ui_getState: () => state,
      ui_createWallet: ({ password, importPrivateKey }) => {
        state = {
          ...state,
          hasWallet: true,
          locked: false,
          address: importPrivateKey ? "0xImported" : "0xNew",
        };
        expect(password).toBe("Correct-Horse-42");
        return state;
      },
      ui_lock: () => {
        state = { ...state, locked: true };
        return state;
      },
      ui_unlock: ({ password }) => {
        if (password !== "Correct-Horse-42") throw new Error("wrong password");
        state = { ...state, locked: false };
        return state;
      },
    });
    const store = createWalletStore();
    await store.getState().load();
    expect(store.getState().wallet?.hasWallet).toBe(false);
    await store.getState().create("Correct-Horse-42", "0xabc");
    expect(store.getState().wallet?.address).toBe("0xImported");
    expect(calls[1]?.params).toEqual({ password: "Correct-Horse-42", importPrivateKey: "0xabc" });
    await store.getState().lock();
    expect(store.getState().wallet?.locked).toBe(true);
    await store.getState().unlock("nope");
    expect(store.getState().error).toBe("wrong password");
    expect(store.getState().wallet?.locked).toBe(true);
    await store.getState().unlock("Correct-Horse-42");
    expect(store.getState().wallet?.locked).toBe(false);
    expect(store.getState().error).toBeUndefined();
  });

  it("sends no key field when creating a fresh wallet", async () => {
    const calls = installFakeBackground({ ui_createWallet: () => ({ ...state, hasWallet: true }) });
    await createWalletStore().getState().create("Correct-Horse-42");
    expect(calls[0]?.params).toEqual({ password: "Correct-Horse-42" });
  });
});
