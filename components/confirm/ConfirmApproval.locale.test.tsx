// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { ACTIVATION_DELAY_MS } from "@/lib/ui/activation-delay";
import { APPROVAL } from "@/tests/unit-support/ui/fixtures";
import { ConfirmApproval } from "./ConfirmApproval";

// Apart from ConfirmApproval.test.tsx: the amounts of the confirm window in a German browser.
describe("ConfirmApproval in the person's language", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("writes the balance and the daily amount with the language's decimal mark, and reads it back", () => {
    const onDecide = vi.fn();
    render(
      <ConfirmApproval
        approval={{ ...APPROVAL, balance: { available: "1234500000", after: "1234495000" } }}
        position={1}
        count={1}
        busy={false}
        onDecide={onDecide}
        onUnlock={vi.fn()}
        onSelect={vi.fn()}
      />,
    );
    expect(screen.getByTestId("balance").textContent).toMatch(
      /^1\.234,5 \S+, then 1\.234,495 \S+ after this payment$/,
    );
    act(() => vi.advanceTimersByTime(ACTIVATION_DELAY_MS));
    fireEvent.click(screen.getByRole("checkbox", { name: "Always allow up to" }));
    const perDay = screen.getByLabelText("Daily amount for this site") as HTMLInputElement;
    expect(perDay.value).toBe("0,005");
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(onDecide).toHaveBeenCalledExactlyOnceWith("approve", "5000");
  });

  // A German reader takes "4.995 USD" left for four thousand nine hundred ninety-five dollars.
  it("writes what the limits leave and the receiver's total as it writes the amount", () => {
    render(
      <ConfirmApproval
        approval={{
          ...APPROVAL,
          total: { amount: "1234.5", currency: "USD" },
          remaining: [{ scope: "global", period: "day", currency: "USD", micro: "4995000" }],
        }}
        position={1}
        count={1}
        busy={false}
        onDecide={vi.fn()}
        onUnlock={vi.fn()}
        onSelect={vi.fn()}
      />,
    );
    expect(screen.getByTestId("remaining").textContent).toBe("All sites, today: 4,995 USD");
    expect(screen.getByText(/^Total stated by the receiver/).textContent).toBe(
      "Total stated by the receiver: 1.234,5 \u2068USD\u2069",
    );
  });
});
