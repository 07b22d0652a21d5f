// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import type { PolicyView, WalletState } from "@/lib/messages";
import { unisolatedBidi } from "@/tests/unit-support/ui/bidi";
import { installFakeBackground } from "@/tests/unit-support/ui/fake-background";
import { balanceRow, PAYMENT_ROW } from "@/tests/unit-support/ui/fixtures";
import { PopupView } from "./PopupView";

const SITE = "https://agent.example";

describe("PopupView", () => {
  beforeEach(() => {
    fakeBrowser.reset();
    vi.spyOn(fakeBrowser.tabs, "query").mockResolvedValue([
      { url: `${SITE}/chat` } as Browser.tabs.Tab,
    ]);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it("leads with the balance, reminds of the backup, shows spend bars, and stops the site's automatic payments", async () => {
    let state: WalletState = {
      hasWallet: true,
      locked: false,
      autoLockMinutes: 15,
      address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      walletId: "urn:jwk:xyz",
      backupPending: true,
    };
    let policy: PolicyView = {
      globalCaps: { USD: { day: "5000000" } },
      origins: {
        [SITE]: {
          currency: "USD",
          amount: "1000000",
          period: "day",
          autoApproveUpTo: "10000",
          perCallMax: "1000000",
        },
      },
      receivers: { allow: [], deny: [] },
      networks: [],
      assets: [],
      trustedRegistries: [],
    };
    installFakeBackground({
      ui_getState: () => state,
      ui_getBalances: () => ({
        address: state.address ?? "",
        balances: [balanceRow({ amount: "2500000" })],
      }),
      ui_getSpend: () => [
        {
          currency: "USD",
          today: "1250000",
          month: "1250000",
          dayCap: "5000000",
          origin: {
            origin: SITE,
            spent: "250000",
            remaining: "750000",
            budget: policy.origins[SITE] ?? {
              currency: "USD",
              amount: "0",
              period: "day",
              autoApproveUpTo: "0",
              perCallMax: "0",
            },
          },
        },
      ],
      ui_getPricing: () => [
        {
          server: `${SITE}/mcp`,
          tools: [
            { name: "search", pricing: { estimate: "0.01 USD" } },
            // A server's words: a bidi override in them must not reorder the rest of the line.
            { name: "lookup \u202E", pricing: { estimate: "0.02 USD", model: "per_call \u202E" } },
          ],
        },
      ],
      ui_listPending: () => [],
      ui_listPayments: () => ({
        rows: [
          {
            ...PAYMENT_ROW,
            receiver: "https://api.weather.example",
            what: `${SITE}/api/q?x=a%20b%E2%80%AE`,
            state: "failed",
            reason: "the server refused",
          },
        ],
        total: 1,
      }),
      ui_getPolicy: () => policy,
      ui_setPolicy: (next) => {
        policy = next;
        return next;
      },
      ui_confirmBackup: () => {
        state = { ...state, backupPending: undefined };
        return state;
      },
    });
    render(<PopupView />);

    const balance = await screen.findByTestId("balance-row");
    expect(balance.textContent).toBe("2.5 USDC on Base Sepolia (test network)");
    expect(screen.getByRole("alert").textContent).toMatch(/Your key is not backed up yet/);
    const today = await screen.findByRole("meter", { name: "Today" });
    expect(today.getAttribute("value")).toBe("25");
    expect(screen.getByText("1.25 USD of 5 USD")).toBeTruthy();
    expect(screen.getByTestId("tab-origin").textContent).toBe("agent.example");
    expect(screen.getByTestId("site-budget").textContent).toBe(
      "Budget: 1 USD per day · 0.75 USD left",
    );
    expect(
      within(screen.getByRole("list", { name: "Price hints" })).getByText("search"),
    ).toBeTruthy();
    const recent = screen.getByTestId("recent");
    expect(recent.textContent).toBe(
      "\u2068api.weather.example\u2069 · \u2068/api/q?x=a b⟨U+202E⟩\u2069failed: the server refused0.005 USDC",
    );
    expect(unisolatedBidi(document.body)).toEqual([]);
    expect(within(recent).getByTitle("the server refused")).toBeTruthy();

    fireEvent.click(screen.getByRole("switch", { name: "Automatic payments on this site" }));
    expect(await screen.findByText("Saved.")).toBeTruthy();
    expect(policy.origins[SITE]?.autoApproveUpTo).toBe("0");
    expect(screen.getByRole("button", { name: "Copy address" })).toBeTruthy();
  });
});
