// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import type { PolicyView, WalletState } from "@/lib/messages";
import { installFakeBackground } from "@/tests/unit-support/ui/fake-background";
import { balanceRow } from "@/tests/unit-support/ui/fixtures";
import { WalletGate } from "./WalletGate";

const KEY = `0x${"ab".repeat(32)}`;
const ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

function fakeWallet() {
  let state: WalletState = { hasWallet: false, locked: true, autoLockMinutes: 15 };
  let policy: PolicyView = {
    globalCaps: {},
    origins: {},
    receivers: { allow: [], deny: [] },
    networks: [],
    assets: [],
    trustedRegistries: [],
  };
  const exported: string[] = [];
  installFakeBackground({
    ui_getState: () => state,
    ui_createWallet: (params) => {
      state = {
        hasWallet: true,
        locked: false,
        autoLockMinutes: 15,
        address: ADDRESS,
        walletId: "urn:jwk:xyz",
        ...(params.importPrivateKey ? {} : { backupPending: true }),
      };
      return state;
    },
    ui_exportKey: (params) => {
      exported.push(params.password);
      return { privateKey: KEY };
    },
    ui_confirmBackup: () => {
      const { backupPending: _done, ...rest } = state;
      state = rest;
      return state;
    },
    ui_getBalances: () => ({
      address: ADDRESS,
      balances: [balanceRow({ amount: "0" })],
    }),
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
  return { state: () => state, policy: () => policy, exported };
}

const typeInto = async (label: string, value: string) =>
  fireEvent.change(await screen.findByLabelText(label), { target: { value } });

async function createWithNewKey() {
  fireEvent.click(await screen.findByRole("button", { name: "Create a new wallet" }));
  await typeInto("Password", "Correct-Horse-42");
  await typeInto("Confirm password", "Correct-Horse-42");
  fireEvent.click(screen.getByRole("button", { name: "Create wallet" }));
}

function renderGate() {
  render(
    <WalletGate>
      {(wallet, lock) => (
        <button type="button" onClick={lock}>
          Lock {wallet.address}
        </button>
      )}
    </WalletGate>,
  );
}

describe("WalletGate", () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(cleanup);

  it("makes a key, shows it once behind a reveal until saved, sets caps, says how to fund, then locks", async () => {
    const wallet = fakeWallet();
    renderGate();
    await createWithNewKey();

    expect(await screen.findByRole("heading", { name: "Back up your key" })).toBeTruthy();
    expect(screen.getByTestId("first-run-step").textContent).toBe("Step 1 of 3");
    expect(screen.queryByText(KEY)).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Show my key" }));
    expect((await screen.findByTestId("backup-key")).textContent).toBe(KEY);
    expect(wallet.exported).toEqual(["Correct-Horse-42"]);
    const saved = screen.getByRole("button", { name: "I saved it" }) as HTMLButtonElement;
    expect(saved.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText("I have saved my key somewhere safe"));
    fireEvent.click(saved);

    expect(await screen.findByRole("heading", { name: "Spending caps" })).toBeTruthy();
    expect(wallet.state().backupPending).toBeUndefined();
    expect(screen.getByTestId("address").textContent).toBe(ADDRESS);
    fireEvent.click(screen.getByRole("button", { name: "Save" }));

    expect(await screen.findByRole("heading", { name: "How to fund it" })).toBeTruthy();
    expect(screen.getByTestId("fund-address").textContent).toBe(ADDRESS);
    expect(screen.getByRole("img", { name: "QR code of your address" })).toBeTruthy();
    expect((await screen.findByTestId("fund-tokens")).textContent).toBe(
      "USDC on Base Sepolia (test network)",
    );
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    const opened = await screen.findByRole("button", { name: `Lock ${ADDRESS}` });
    // Accessibility review: after "Done" the focus fell to the page's start.
    expect(document.activeElement).toBe(opened);
    fireEvent.click(opened);
    expect(wallet.policy().globalCaps).toEqual({ USD: { day: "5000000", month: "50000000" } });
    expect(wallet.policy().origins).toEqual({});
    expect(await screen.findByRole("button", { name: "Unlock" })).toBeTruthy();
  });

  it("lets the backup wait (the reminder stays), and skips it for an imported key", async () => {
    const wallet = fakeWallet();
    renderGate();
    await createWithNewKey();
    fireEvent.click(await screen.findByRole("button", { name: "Later" }));
    expect(await screen.findByRole("heading", { name: "Spending caps" })).toBeTruthy();
    expect(wallet.exported).toEqual([]);
    expect(wallet.state().backupPending).toBe(true);
    cleanup();

    fakeBrowser.reset();
    fakeWallet();
    renderGate();
    fireEvent.click(await screen.findByRole("button", { name: "Use a key I have" }));
    await typeInto("Private key", KEY);
    await typeInto("Password", "Correct-Horse-42");
    await typeInto("Confirm password", "Correct-Horse-42");
    fireEvent.click(screen.getByRole("button", { name: "Import key" }));
    expect(await screen.findByRole("heading", { name: "Spending caps" })).toBeTruthy();
    expect(screen.getByTestId("first-run-step").textContent).toBe("Step 1 of 2");
  });

  it("puts the focus on the opened wallet's first heading after unlocking, and leaves it alone on a page that opened unlocked", async () => {
    let state: WalletState = {
      hasWallet: true,
      locked: true,
      autoLockMinutes: 15,
      address: ADDRESS,
    };
    installFakeBackground({
      ui_getState: () => state,
      ui_unlock: ({ password }) => {
        if (password !== "Correct-Horse-42")
          throw new Error("Wrong password: it does not unlock this wallet");
        state = { ...state, locked: false };
        return state;
      },
    });
    const gate = () => (
      <WalletGate>
        {() => (
          <section>
            <button type="button">Lock</button>
            <h2>Balance</h2>
          </section>
        )}
      </WalletGate>
    );
    render(gate());
    // Accessibility review: a failed unlock left the focus on the page's start (Unlock was
    // disabled while it tried): the password field takes it back, its text selected.
    await typeInto("Password", "wrong-horse");
    const unlock = screen.getByRole("button", { name: "Unlock" });
    unlock.focus();
    fireEvent.click(unlock);
    expect((await screen.findByRole("alert")).textContent).toMatch(/Wrong password/);
    const password = screen.getByLabelText("Password") as HTMLInputElement;
    expect(document.activeElement).toBe(password);
    expect([password.selectionStart, password.selectionEnd]).toEqual([0, "wrong-horse".length]);
    await typeInto("Password", "Correct-Horse-42");
    fireEvent.click(screen.getByRole("button", { name: "Unlock" }));
    const heading = await screen.findByRole("heading", { name: "Balance" });
    expect(document.activeElement).toBe(heading);
    cleanup();

    render(gate());
    await screen.findByRole("heading", { name: "Balance" });
    expect(document.activeElement).toBe(document.body);
  });
});
