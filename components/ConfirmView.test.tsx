// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import type { PendingApproval } from "@/lib/messages";
import { installFakeBackground } from "@/lib/ui/fake-background";
import { APPROVAL } from "@/lib/ui/fixtures";
import { ConfirmView } from "./ConfirmView";

describe("ConfirmView", () => {
  let queue: PendingApproval[];
  beforeEach(() => {
    fakeBrowser.reset();
    queue = [
      { ...APPROVAL, id: "a", origin: "https://first.example" },
      { ...APPROVAL, id: "b", origin: "https://second.example" },
    ];
    installFakeBackground({
      ui_listPending: () => queue,
      ui_decide: ({ approvalId }) => {
        queue = queue.filter((a) => a.id !== approvalId);
        return null;
      },
    });
  });
  afterEach(cleanup);

  it("works through the queue and closes when nothing else waits", async () => {
    const close = vi.fn();
    render(<ConfirmView closeWhenDone={close} />);
    expect((await screen.findByTestId("queue-position")).textContent).toBe("1 of 2");
    expect(screen.getByTestId("origin").textContent).toBe("https://first.example");
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    await vi.waitFor(() =>
      expect(screen.getByTestId("origin").textContent).toBe("https://second.example"),
    );
    expect(screen.queryByTestId("queue-position")).toBeNull();
    expect(close).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    expect(await screen.findByText("No payment is waiting for your approval.")).toBeTruthy();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it("says so when the queue is empty", async () => {
    queue = [];
    render(<ConfirmView closeWhenDone={vi.fn()} />);
    expect(await screen.findByText("No payment is waiting for your approval.")).toBeTruthy();
  });
});
