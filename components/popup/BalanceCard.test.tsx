// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { installFakeBackground } from "@/tests/unit-support/ui/fake-background";
import { balanceRow } from "@/tests/unit-support/ui/fixtures";
import { BalanceCard } from "./BalanceCard";

const usdc = balanceRow();

describe("BalanceCard", () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it("leads with what can be spent, then each token, and tucks away the networks not read", async () => {
    installFakeBackground({
      ui_getBalances: () => ({
        address: "0xDF1874d08Ea988801ebc9e46880200d5Ef6c11B0",
        balances: [
          { ...usdc, amount: "2500000", pending: "10000" },
          {
            ...usdc,
            network: "eip155:8453",
            networkName: "Base",
            testnet: false,
            problem: "Could not read the balance from mainnet.base.org: timeout",
          },
        ],
      }),
    });
    render(<BalanceCard />);
    expect((await screen.findByTestId("balance-total")).textContent).toBe("2.49 USD");
    const rows = within(screen.getByRole("list", { name: "Balance per token" })).getAllByRole(
      "listitem",
    );
    expect(rows.map((row) => row.textContent)).toEqual([
      "2.49 USDC on Base Sepolia (test network) · 0.01 signed, not yet collected",
    ]);
    expect(screen.getByText("1 network not read")).toBeTruthy();
    expect(
      screen.getByText(/USDC on Base: Could not read the balance from mainnet\.base\.org/),
    ).toBeTruthy();
  });

  it("writes the amounts in the browser's language", async () => {
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
    installFakeBackground({
      ui_getBalances: () => ({
        address: "0xDF1874d08Ea988801ebc9e46880200d5Ef6c11B0",
        balances: [{ ...usdc, amount: "1234510000", pending: "10000" }],
      }),
    });
    render(<BalanceCard />);
    expect((await screen.findByTestId("balance-total")).textContent).toBe("1.234,5 USD");
    expect(screen.getByTestId("balance-row").textContent).toBe(
      "1.234,5 USDC on Base Sepolia (test network) · 0,01 signed, not yet collected",
    );
  });

  it("says so when the wallet cannot answer", async () => {
    installFakeBackground({});
    render(<BalanceCard />);
    expect(await screen.findByRole("alert")).toBeTruthy();
  });
});
