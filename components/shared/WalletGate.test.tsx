// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import type { PolicyView, WalletState } from "@/lib/messages";
import { installFakeBackground } from "@/tests/unit-support/ui/fake-background";
import { WalletGate } from "./WalletGate";

describe("WalletGate", () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(cleanup);

  it("creates a wallet, shows its address and id, sets first-run caps, then the page, then locks", async () => {
    let state: WalletState = { hasWallet: false, locked: true, autoLockMinutes: 15 };
    let policy: PolicyView = {
      globalCaps: {},
      origins: {},
      receivers: { allow: [], deny: [] },
      networks: [],
      assets: [],
      trustedRegistries: [],
    };
    installFakeBackground({
      ui_getState: () => state,
      ui_createWallet: () => {
        state = {
          hasWallet: true,
          locked: false,
          autoLockMinutes: 15,
          address: "0xAbC",
          walletId: "urn:jwk:xyz",
        };
        return state;
      },
      ui_getPolicy: () => policy,
      ui_setPolicy: (next) => {
        policy = next;
        return next;
      },
      ui_lock: () => {
        state = { ...state, locked: true };
        return state;
      },
    });
    render(
      <WalletGate>
        {(wallet, lock) => (
          <button type="button" onClick={lock}>
            Lock {wallet.address}
          </button>
        )}
      </WalletGate>,
    );
    fireEvent.change(await screen.findByLabelText("Password"), {
      target: { value: "Correct-Horse-42" },
    });
    fireEvent.change(screen.getByLabelText("Confirm password"), {
      target: { value: "Correct-Horse-42" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Create wallet" }));
    expect((await screen.findByTestId("address")).textContent).toBe("0xAbC");
    expect(screen.getByTestId("wallet-id").textContent).toBe("urn:jwk:xyz");
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    fireEvent.click(await screen.findByRole("button", { name: "Lock 0xAbC" }));
    expect(policy.globalCaps).toEqual({ USD: { day: "5000000", month: "50000000" } });
    expect(policy.origins).toEqual({});
    expect(await screen.findByRole("button", { name: "Unlock" })).toBeTruthy();
  });
});
