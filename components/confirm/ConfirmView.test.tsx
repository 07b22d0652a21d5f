// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import type { DecideParams, PendingApproval } from "@/lib/messages";
import { STORAGE_KEYS } from "@/lib/storage-keys";
import { ACTIVATION_DELAY_MS } from "@/lib/ui/activation-delay";
import { createApprovalStore, followApprovals } from "@/lib/ui/approval-store";
import { installFakeBackground } from "@/tests/unit-support/ui/fake-background";
import { APPROVAL } from "@/tests/unit-support/ui/fixtures";
import { ConfirmView } from "./ConfirmView";

/** Lets the fake background answer and React render, moving the clock by `ms`. */
const wait = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms));

/** Stops the store `followed` last made from following the background. */
let unfollow = () => {};

/** An approval store following the (fake) background, as the window's script makes it. */
function followed() {
  const store = createApprovalStore();
  unfollow = followApprovals(store);
  return store;
}

describe("ConfirmView", () => {
  let queue: PendingApproval[];
  let decided: DecideParams[];
  beforeEach(() => {
    fakeBrowser.reset();
    vi.useFakeTimers();
    decided = [];
    queue = [
      { ...APPROVAL, id: "a", origin: "https://first.example" },
      { ...APPROVAL, id: "b", origin: "https://second.example" },
    ];
    installFakeBackground({
      ui_listPending: () => queue,
      ui_decide: (params) => {
        decided.push(params);
        queue = queue.filter((a) => a.id !== params.approvalId);
        return null;
      },
    });
  });
  afterEach(() => {
    cleanup();
    unfollow();
    vi.useRealTimers();
  });

  it("works through the queue and closes when nothing else waits", async () => {
    const close = vi.fn();
    render(<ConfirmView store={followed()} closeWhenDone={close} />);
    await wait(ACTIVATION_DELAY_MS);
    expect(screen.getByTestId("queue-position").textContent).toBe("1 of 2");
    expect(screen.getByTestId("origin").textContent).toBe("https://first.example");
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    await wait();
    expect(screen.getByTestId("origin").textContent).toBe("https://second.example");
    expect(screen.queryByTestId("queue-position")).toBeNull();
    expect(close).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    await wait();
    expect(screen.getByText("No payment is waiting for your approval.")).toBeTruthy();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it("closes when the last request is withdrawn by its page, without the person deciding", async () => {
    const close = vi.fn();
    queue = [{ ...APPROVAL, id: "a" }];
    render(<ConfirmView store={followed()} closeWhenDone={close} />);
    await wait(ACTIVATION_DELAY_MS);
    expect(screen.getByTestId("origin").textContent).toBe(APPROVAL.origin);
    queue = [];
    await act(() => fakeBrowser.storage.session.set({ [STORAGE_KEYS.pending]: [] }));
    await wait();
    expect(close).toHaveBeenCalledTimes(1);
    expect(decided).toEqual([]);
  });

  it("stays open when it opened with nothing waiting", async () => {
    const close = vi.fn();
    queue = [];
    render(<ConfirmView store={followed()} closeWhenDone={close} />);
    await wait();
    expect(screen.getByText("No payment is waiting for your approval.")).toBeTruthy();
    expect(close).not.toHaveBeenCalled();
  });

  it("holds the next request for a fresh delay after a decision: one gesture approves one", async () => {
    render(<ConfirmView store={followed()} closeWhenDone={vi.fn()} />);
    await wait(ACTIVATION_DELAY_MS);
    fireEvent.keyDown(document.body, { key: "Enter" });
    await wait();
    expect(screen.getByTestId("origin").textContent).toBe("https://second.example");
    // The second click of a double-click, and the next Enter, land on a request nobody has seen.
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    fireEvent.keyDown(document.body, { key: "Enter" });
    await wait(ACTIVATION_DELAY_MS - 1);
    fireEvent.keyDown(document.body, { key: "Enter" });
    await wait();
    expect(decided).toEqual([{ approvalId: "a", decision: "approve" }]);
    await wait(1);
    fireEvent.keyDown(document.body, { key: "Enter" });
    await wait();
    expect(decided.map((d) => d.approvalId)).toEqual(["a", "b"]);
  });

  it("holds a request newly shown by Next request for a fresh delay", async () => {
    render(<ConfirmView store={followed()} closeWhenDone={vi.fn()} />);
    await wait(ACTIVATION_DELAY_MS);
    fireEvent.click(screen.getByRole("button", { name: "Next request" }));
    expect(screen.getByTestId("origin").textContent).toBe("https://second.example");
    fireEvent.keyDown(document.body, { key: "Enter" });
    await wait();
    expect(decided).toEqual([]);
  });

  it("says so when the queue is empty", async () => {
    queue = [];
    render(<ConfirmView store={followed()} closeWhenDone={vi.fn()} />);
    await wait();
    expect(screen.getByText("No payment is waiting for your approval.")).toBeTruthy();
  });
});
