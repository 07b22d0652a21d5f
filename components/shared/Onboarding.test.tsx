// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LockScreen } from "./LockScreen";
import { Onboarding } from "./Onboarding";

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const button = (name: string) => screen.getByRole("button", { name }) as HTMLButtonElement;

describe("Onboarding", () => {
  afterEach(cleanup);

  it("creates a wallet once the password is long enough and confirmed, showing strength", () => {
    const onCreate = vi.fn();
    render(<Onboarding busy={false} onCreate={onCreate} />);
    expect(screen.getByRole("heading", { name: "Welcome to Stipendex Wallet" })).toBeTruthy();
    expect(screen.queryByLabelText("Password")).toBeNull();
    fireEvent.click(button("Create a new wallet"));
    type("Password", "short");
    expect(screen.getByTestId("strength").textContent).toBe("Strength: too short");
    expect(button("Create wallet").disabled).toBe(true);
    type("Password", "Correct-Horse-42-Battery");
    expect(screen.getByTestId("strength").textContent).toBe("Strength: strong");
    type("Confirm password", "Correct-Horse-42-Batter");
    expect(screen.getByText("The passwords differ.")).toBeTruthy();
    expect(button("Create wallet").disabled).toBe(true);
    type("Confirm password", "Correct-Horse-42-Battery");
    fireEvent.click(button("Create wallet"));
    expect(onCreate).toHaveBeenCalledWith("Correct-Horse-42-Battery", undefined);
  });

  it("imports a key", () => {
    const onCreate = vi.fn();
    render(<Onboarding busy={false} onCreate={onCreate} />);
    fireEvent.click(button("Use a key I have"));
    expect((screen.getByLabelText("a key I have") as HTMLInputElement).checked).toBe(true);
    type("Private key", " 0xabc ");
    type("Password", "Correct-Horse-42");
    type("Confirm password", "Correct-Horse-42");
    fireEvent.click(button("Import key"));
    expect(onCreate).toHaveBeenCalledWith("Correct-Horse-42", "0xabc");
  });

  // Accessibility review: a key the wallet refused left the focus on the page's start.
  it("puts the focus back in the key field, its text selected, when the import failed", () => {
    const view = (busy: boolean, error?: string) => (
      <Onboarding busy={busy} error={error} onCreate={vi.fn()} />
    );
    const { rerender } = render(view(false));
    fireEvent.click(button("Use a key I have"));
    type("Private key", "0xabc");
    type("Password", "Correct-Horse-42");
    type("Confirm password", "Correct-Horse-42");
    button("Import key").focus();
    rerender(view(true));
    rerender(view(false, "invalid private key: expected 32 bytes"));
    const key = screen.getByLabelText("Private key") as HTMLInputElement;
    expect(document.activeElement).toBe(key);
    expect([key.selectionStart, key.selectionEnd]).toEqual([0, "0xabc".length]);
  });
});

describe("LockScreen", () => {
  afterEach(cleanup);
  it("unlocks with the password and shows the background's error", () => {
    const onUnlock = vi.fn();
    render(<LockScreen busy={false} error="wrong password" onUnlock={onUnlock} />);
    type("Password", "pw");
    fireEvent.click(button("Unlock"));
    expect(onUnlock).toHaveBeenCalledWith("pw");
    expect(screen.getByRole("alert").textContent).toBe("wrong password");
  });
});
