// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { BASE_USDC } from "@/tests/unit-support/ui/fixtures";
import { SpendByTables } from "./SpendByTables";

describe("SpendByTables", () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });
  it("shows a site's test money apart from its real money, each with its network", () => {
    const total = { key: "https://agent.example", symbol: "USDC", decimals: 6, count: 1 };
    render(
      <SpendByTables
        totals={{
          sites: [
            {
              ...total,
              network: "eip155:84532",
              networkName: "Base Sepolia",
              testnet: true,
              asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
              atomic: "5000000",
            },
            { ...total, ...BASE_USDC, atomic: "1000" },
          ],
          receivers: [],
        }}
      />,
    );
    const perSite = screen.getByRole("table", { name: "Paid per site" });
    expect(
      within(perSite)
        .getAllByRole("row")
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual([
      "agent.example15 USDCtest money, on Base Sepolia",
      "agent.example10.001 USDCon Base",
    ]);
  });

  it("writes each payment count in the browser's language", () => {
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
    render(
      <SpendByTables
        totals={{
          sites: [],
          receivers: [
            {
              key: "0x1111111111111111111111111111111111111111",
              symbol: "USDC",
              decimals: 6,
              count: 12_345,
              ...BASE_USDC,
              atomic: "1000",
            },
          ],
        }}
      />,
    );
    const perReceiver = screen.getByRole("table", { name: "Paid per receiver" });
    expect(within(perReceiver).getAllByRole("cell")[1]?.textContent).toBe("12.345");
  });

  it("writes each amount in the browser's language", () => {
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
    const total = { key: "https://agent.example", symbol: "USDC", decimals: 6, count: 1 };
    render(
      <SpendByTables
        totals={{ sites: [{ ...total, ...BASE_USDC, atomic: "1234500000" }], receivers: [] }}
      />,
    );
    const perSite = screen.getByRole("table", { name: "Paid per site" });
    expect(within(perSite).getAllByRole("cell")[2]?.textContent).toBe("1.234,5 USDCon Base");
  });
});
