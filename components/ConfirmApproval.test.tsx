// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PendingApproval } from "@/lib/messages";
import { APPROVAL } from "@/lib/ui/fixtures";
import { ConfirmApproval, type ConfirmApprovalProps } from "./ConfirmApproval";

function renderApproval(
  overrides: Partial<PendingApproval> = {},
  props: Partial<ConfirmApprovalProps> = {},
) {
  const onDecide = vi.fn();
  const onUnlock = vi.fn();
  const onSelect = vi.fn();
  render(
    <ConfirmApproval
      approval={{ ...APPROVAL, ...overrides }}
      position={1}
      count={1}
      busy={false}
      onDecide={onDecide}
      onUnlock={onUnlock}
      onSelect={onSelect}
      {...props}
    />,
  );
  return { onDecide, onUnlock, onSelect };
}

describe("ConfirmApproval", () => {
  afterEach(cleanup);

  it("shows who asks, who is paid, the pay-to address, what for and the remaining limits", () => {
    renderApproval();
    expect(screen.getByTestId("origin").textContent).toBe("https://agent.example");
    const receiver = screen.getByTestId("receiver");
    expect(receiver.textContent).toContain("did:web:api.weather.example");
    expect(within(receiver).getByText("Verified")).toBeTruthy();
    expect(screen.getByTestId("pay-to").textContent).toBe(APPROVAL.payTo);
    expect(screen.getByText("Forecast for Paris, 7 days")).toBeTruthy();
    expect(screen.getByText("forecast")).toBeTruthy();
    expect(screen.getByText(/"city": "Paris"/)).toBeTruthy();
    const remaining = screen.getByTestId("remaining");
    expect(remaining.textContent).toContain("today (all sites): 4.995 USD");
    expect(remaining.textContent).toContain("https://agent.example this day: 0.995 USD");
  });

  it("shows an HTTP resource as method and URL", () => {
    renderApproval({
      resource: { kind: "http", method: "GET", url: "https://api.example/paid?q=1" },
    });
    expect(screen.getByText("GET https://api.example/paid?q=1")).toBeTruthy();
  });

  it("marks an unverified receiver and warns about it", () => {
    renderApproval({
      receiver: { id: "did:web:unknown.example", verified: false },
      warnings: ["unverified-receiver", "first-payment-to-receiver", "far-above-usual", "mainnet"],
    });
    expect(within(screen.getByTestId("receiver")).getByText("Unverified")).toBeTruthy();
    const warnings = within(screen.getByRole("list", { name: "Warnings" })).getAllByRole(
      "listitem",
    );
    expect(warnings.map((w) => w.textContent)).toEqual([
      "⚠ Unverified receiver: the wallet could not confirm who is paid.",
      "⚠ First payment to this receiver.",
      "⚠ Far above what this site usually pays.",
      "⚠ Mainnet: this spends real money.",
    ]);
  });

  it("shows the amount with symbol and network, and the atomic amount on demand", () => {
    renderApproval();
    expect(screen.getByTestId("amount").textContent).toBe("0.005 USDC on Base Sepolia (testnet)");
    expect(screen.getByText("Testnet: test money, not real funds.")).toBeTruthy();
    expect(screen.queryByTestId("atomic-amount")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Show atomic amount" }));
    expect(screen.getByTestId("atomic-amount").textContent).toBe(
      "5000 atomic units · 6 decimals · eip155:84532",
    );
  });

  it("approves on Enter and declines on Escape", () => {
    const { onDecide } = renderApproval();
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onDecide).toHaveBeenLastCalledWith("approve");
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onDecide).toHaveBeenLastCalledWith("decline");
    fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(onDecide.mock.calls).toEqual([["approve"], ["decline"], ["decline"], ["approve"]]);
  });

  it("leaves Enter on a focused button to that button", () => {
    const { onDecide } = renderApproval();
    fireEvent.keyDown(screen.getByRole("button", { name: "Decline" }), { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
  });

  it("passes the always-allow daily amount in micro units", () => {
    const { onDecide } = renderApproval();
    const amount = screen.getByLabelText("Daily amount for this site") as HTMLInputElement;
    expect(amount.value).toBe("0.005");
    expect(amount.disabled).toBe(true);
    fireEvent.click(screen.getByRole("checkbox", { name: "Always allow up to" }));
    fireEvent.change(amount, { target: { value: "2.5" } });
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(onDecide).toHaveBeenLastCalledWith("approve", "2500000");
    expect(screen.getByText("USD per day for this site")).toBeTruthy();
  });

  it("refuses an always-allow amount it cannot read, naming it", () => {
    const { onDecide } = renderApproval();
    fireEvent.click(screen.getByRole("checkbox", { name: "Always allow up to" }));
    fireEvent.change(screen.getByLabelText("Daily amount for this site"), {
      target: { value: "lots" },
    });
    fireEvent.keyDown(document.body, { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toMatch(
      /Daily amount for this site must be an amount/,
    );
  });

  it("shows the queue position and moves through it", () => {
    const { onSelect } = renderApproval({}, { position: 1, count: 2 });
    expect(screen.getByTestId("queue-position").textContent).toBe("1 of 2");
    expect(
      (screen.getByRole("button", { name: "Previous request" }) as HTMLButtonElement).disabled,
    ).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Next request" }));
    expect(onSelect).toHaveBeenCalledWith(2);
  });

  it("asks for the password first when the wallet is locked", () => {
    const { onDecide, onUnlock } = renderApproval({ needsUnlock: true });
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    const password = screen.getByLabelText("Password");
    fireEvent.keyDown(password, { key: "Enter" });
    expect(onDecide).not.toHaveBeenCalled();
    fireEvent.change(password, { target: { value: "Correct-Horse-42" } });
    fireEvent.click(screen.getByRole("button", { name: "Unlock" }));
    expect(onUnlock).toHaveBeenCalledWith("Correct-Horse-42");
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onDecide).toHaveBeenCalledWith("decline");
  });

  it("ignores keys while a decision is being sent", () => {
    const { onDecide } = renderApproval({}, { busy: true });
    fireEvent.keyDown(document.body, { key: "Enter" });
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onDecide).not.toHaveBeenCalled();
  });
});
