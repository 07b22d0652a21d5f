import { beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { installFakeBackground } from "../../tests/unit-support/ui/fake-background";
import { APPROVAL } from "../../tests/unit-support/ui/fixtures";
import type { DecideParams, PendingApproval } from "../messages";
import { STORAGE_KEYS } from "../storage-keys";
import { createApprovalStore, followApprovals, LISTING_PATIENCE_MS } from "./approval-store";

describe("approval store", () => {
  let queue: PendingApproval[];
  let decided: DecideParams[];
  beforeEach(() => {
    fakeBrowser.reset();
    decided = [];
    queue = [
      { ...APPROVAL, id: "a", needsUnlock: true },
      { ...APPROVAL, id: "b", needsUnlock: true },
    ];
    installFakeBackground({
      ui_listPending: () => queue,
      ui_unlock: ({ password }) => {
        if (password !== "pw-123456") throw new Error("wrong password");
        queue = queue.map((a) => ({ ...a, needsUnlock: false }));
        return { hasWallet: true, locked: false, autoLockMinutes: 15 };
      },
      ui_decide: (params) => {
        decided.push(params);
        queue = queue.filter((a) => a.id !== params.approvalId);
        return null;
      },
    });
  });

  it("unlocks, then decides the approval on screen and moves to the next", async () => {
    const store = createApprovalStore();
    await store.getState().refresh();
    expect(store.getState().approvals.map((a) => a.id)).toEqual(["a", "b"]);
    await store.getState().unlock("bad");
    expect(store.getState().error).toBe("wrong password");
    await store.getState().unlock("pw-123456");
    expect(store.getState().approvals[0]?.needsUnlock).toBe(false);
    await store.getState().decide("approve", "1000000");
    expect(decided).toEqual([
      { approvalId: "a", decision: "approve", alwaysAllowPerDay: "1000000" },
    ]);
    expect(store.getState().approvals.map((a) => a.id)).toEqual(["b"]);
    await store.getState().decide("decline");
    expect(decided[1]).toEqual({ approvalId: "b", decision: "decline" });
    expect(store.getState().approvals).toEqual([]);
  });

  it("lists again after a listing that a change overtook: the window never stays behind the queue", async () => {
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    installFakeBackground({
      ui_listPending: async () => {
        const listed = [...queue];
        await gate;
        return listed;
      },
    });
    const store = createApprovalStore();
    const first = store.getState().refresh();
    queue = [...queue, { ...APPROVAL, id: "c" }];
    const second = store.getState().refresh();
    open();
    await Promise.all([first, second]);
    expect(store.getState().approvals.map((a) => a.id)).toEqual(["a", "b", "c"]);
  });

  // Black-box review (Chromium): the worker stopped as Approve was clicked; asked again, the
  // request was approved and paid, and the window kept showing it, refusing every click with
  // 'No payment … for this page', while the requests behind it waited.
  it("lists again after a decision the background refused, with no error for an approval that left the queue", async () => {
    const store = createApprovalStore();
    await store.getState().refresh();
    fakeBrowser.reset();
    installFakeBackground({
      ui_listPending: () => queue,
      ui_decide: ({ approvalId }) => {
        throw new Error(`No payment "${approvalId}" for this page`);
      },
    });
    // Answered elsewhere meanwhile: the window has not heard of it yet.
    queue = queue.filter((a) => a.id !== "a");
    await store.getState().decide("approve");
    expect(store.getState().approvals.map((a) => a.id)).toEqual(["b"]);
    expect(store.getState().error).toBeUndefined();
    expect(store.getState().busy).toBe(false);
    // One still listed keeps the refusal on screen.
    await store.getState().decide("approve");
    expect(store.getState().error).toBe('No payment "b" for this page');
  });

  it("lists again, by itself, after a listing the background never answers", async () => {
    vi.useFakeTimers();
    try {
      let answered = false;
      fakeBrowser.reset();
      installFakeBackground({
        ui_listPending: () => {
          if (!answered) {
            answered = true;
            return new Promise<never>(() => {});
          }
          return queue;
        },
      });
      const store = createApprovalStore();
      const hung = store.getState().refresh();
      await vi.advanceTimersByTimeAsync(LISTING_PATIENCE_MS);
      await hung;
      expect(store.getState().approvals.map((a) => a.id)).toEqual(["a", "b"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps showing the same approval when the queue grows in front of it", async () => {
    const store = createApprovalStore();
    await store.getState().refresh();
    store.getState().select(1);
    store.getState().select(5);
    expect(store.getState().index).toBe(1);
    queue = [{ ...APPROVAL, id: "new" }, ...queue];
    await store.getState().refresh();
    expect(store.getState().approvals[store.getState().index]?.id).toBe("b");
  });

  it("lists once when polled again before the answer came", async () => {
    const store = createApprovalStore();
    const first = store.getState().refresh();
    const second = store.getState().refresh();
    expect(second).toBe(first);
    await first;
    expect(store.getState().loaded).toBe(true);
  });

  it("follows: lists at once, again when the queue changes, and not after it stops", async () => {
    let listings = 0;
    installFakeBackground({
      ui_listPending: () => {
        listings++;
        return queue;
      },
    });
    const store = createApprovalStore();
    const stop = followApprovals(store);
    expect(listings).toBe(1);
    const shown = () => store.getState().approvals.map((a) => a.id);
    await vi.waitFor(() => expect(shown()).toEqual(["a", "b"]));
    queue = [{ ...APPROVAL, id: "c" }];
    await fakeBrowser.storage.session.set({ [STORAGE_KEYS.pending]: ["c"] });
    await vi.waitFor(() => expect(shown()).toEqual(["c"]));
    expect(listings).toBe(2);
    stop();
    await fakeBrowser.storage.session.set({ [STORAGE_KEYS.pending]: [] });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(listings).toBe(2);
  });
});
