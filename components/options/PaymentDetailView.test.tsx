// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { unisolatedBidi } from "@/tests/unit-support/ui/bidi";
import { PAYMENT_DETAIL } from "@/tests/unit-support/ui/fixtures";
import { PaymentDetailView } from "./PaymentDetailView";

describe("PaymentDetailView", () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });
  it("shows each decoded object with its verification and the settlement transaction", () => {
    const onClose = vi.fn();
    render(<PaymentDetailView detail={PAYMENT_DETAIL} onClose={onClose} />);
    const items = within(screen.getByRole("list", { name: "Signed objects" })).getAllByRole(
      "listitem",
    );
    expect(items[0]?.querySelector("p")?.textContent).toBe("Quote: signature verifies");
    expect(items[1]?.querySelector("p")?.textContent).toBe(
      "Receipt: signature does not verify (signature does not match)",
    );
    expect(items[0]?.textContent).toContain('"amount": "5000"');
    expect(screen.getByTestId("settlement").textContent).toBe(PAYMENT_DETAIL.settlementTransaction);
    expect(screen.getByTestId("settlement-check").textContent).toMatch(/^Not checked on chain yet/);
    expect(screen.getByText(/0.005 USDC on Base Sepolia \(5000 atomic, 6 decimals\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Back to payments" }));
    expect(onClose).toHaveBeenCalled();
  });

  it("writes the time in the browser's language and time zone, and the exact instant in UTC", () => {
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("ja");
    vi.stubEnv("TZ", "Asia/Tokyo");
    render(
      <PaymentDetailView
        detail={{ ...PAYMENT_DETAIL, createdAt: Date.UTC(2025, 2, 1, 23, 30, 5) }}
        onClose={() => undefined}
      />,
    );
    const time = screen.getByText("2025年3月2日 8:30:05 JST");
    expect(time.tagName).toBe("TIME");
    expect(time.getAttribute("datetime")).toBe("2025-03-01T23:30:05.000Z");
    expect(screen.getByTestId("time-utc").textContent).toBe(
      "Exactly: 2025-03-01T23:30:05.000Z (UTC)",
    );
  });

  it("says what the chain said, links the explorer, and keeps a refusal's words", () => {
    const transaction = `0x${"ab".repeat(32)}`;
    render(
      <PaymentDetailView
        detail={{
          ...PAYMENT_DETAIL,
          settlementTransaction: transaction,
          explorerUrl: `https://sepolia.basescan.org/tx/${transaction}`,
          settlementCheck: { status: "confirmed", blockNumber: "42" },
          receiverSaid: "FiatTokenV2_2: invalid signature",
        }}
        onClose={() => undefined}
      />,
    );
    expect(screen.getByTestId("settlement-check").textContent).toMatch(
      /^Confirmed on chain in block 42/,
    );
    expect(
      screen.getByRole("link", { name: "View on the network's explorer" }).getAttribute("href"),
    ).toBe(`https://sepolia.basescan.org/tx/${transaction}`);
    expect(screen.getByTestId("receiver-said").textContent).toBe(
      "FiatTokenV2_2: invalid signature",
    );
    expect(screen.queryByTestId("offer-trimmed")).toBeNull();
  });

  it("isolates a receiver's words and a page's URL: a bidi override cannot reorder the rest", () => {
    render(
      <PaymentDetailView
        detail={{
          ...PAYMENT_DETAIL,
          resource: { kind: "http", method: "GET", url: "https://api.example/\u202Eq" },
          receiverSaid: "refused \u202E",
        }}
        onClose={() => undefined}
      />,
    );
    expect(unisolatedBidi(document.body)).toEqual([]);
  });

  it("names the tool a seed-004 POST was said to carry, as its caller's word, isolated", () => {
    const http = { kind: "http" as const, method: "POST", url: "https://api.example/mcp" };
    const detail = {
      ...PAYMENT_DETAIL,
      resource: { ...http, call: { tool: "verify\u202Eagent" } },
    };
    render(<PaymentDetailView detail={detail} onClose={() => undefined} />);
    expect(screen.getByTestId("described-tool").textContent).toMatch(
      /^\u2068verify⟨U\+202E⟩agent\u2069, as the site said: the price names only the address$/,
    );
    expect(unisolatedBidi(document.body)).toEqual([]);
    cleanup();
    const app = { ...detail, origin: "proxy:https://tools.example" };
    render(<PaymentDetailView detail={app} onClose={() => undefined} />);
    expect(screen.getByTestId("described-tool").textContent).toMatch(/as the desktop app said/);
  });

  it("says a paid payment's reason beside its state once, to sight and to screen readers", () => {
    const reason = "Not confirmed on chain: the claimed transaction was not found.";
    render(
      <PaymentDetailView
        detail={{ ...PAYMENT_DETAIL, state: "settled", reason }}
        onClose={() => undefined}
      />,
    );
    const state = document.querySelector('[data-state="settled"]')?.closest("dd");
    expect(state?.textContent).toBe(`paid ⚠ ${reason}`);
  });

  it("says an object whose receiver no longer lists its key is not checkable now, not that it fails", () => {
    const [quote, ...rest] = PAYMENT_DETAIL.objects;
    if (!quote) throw new Error("the fixture has no Quote");
    render(
      <PaymentDetailView
        detail={{
          ...PAYMENT_DETAIL,
          objects: [
            { ...quote, verified: false, keyNoLongerListed: true, problem: "gone" },
            ...rest,
          ],
        }}
        onClose={() => undefined}
      />,
    );
    const items = within(screen.getByRole("list", { name: "Signed objects" })).getAllByRole(
      "listitem",
    );
    expect(items[0]?.querySelector("p")?.textContent).toMatch(
      /^Quote: not checkable now: its receiver no longer lists the key that signed it/,
    );
  });

  it("says when only a summary of an unpaid request's price was kept", () => {
    render(
      <PaymentDetailView
        detail={{ ...PAYMENT_DETAIL, state: "refused", offerTrimmed: true }}
        onClose={() => undefined}
      />,
    );
    expect(screen.getByTestId("offer-trimmed").textContent).toMatch(
      /^Nothing was paid, and the price this site sent was too large to keep whole/,
    );
  });
});
