// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PAYMENT_DETAIL } from "@/tests/unit-support/ui/fixtures";
import { PaymentDetailView } from "./PaymentDetailView";

describe("PaymentDetailView", () => {
  afterEach(cleanup);
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
    expect(screen.getByText(/0.005 USDC on Base Sepolia \(5000 atomic, 6 decimals\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Back to payments" }));
    expect(onClose).toHaveBeenCalled();
  });
});
