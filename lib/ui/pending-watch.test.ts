import { beforeEach, describe, expect, it } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { PENDING_KEY } from "../payments/approvals";
import { SESSION_STORAGE_KEY } from "../wallet/storage-keys";
import { watchPending } from "./pending-watch";

describe("watchPending", () => {
  beforeEach(() => {
    fakeBrowser.reset();
  });

  it("fires on a change of the queue or of the lock, not of other keys, until stopped", async () => {
    let seen = 0;
    const stop = watchPending(() => seen++);
    await fakeBrowser.storage.session.set({ other: 1 });
    expect(seen).toBe(0);
    await fakeBrowser.storage.session.set({ [PENDING_KEY]: ["a"] });
    expect(seen).toBe(1);
    await fakeBrowser.storage.session.set({ [SESSION_STORAGE_KEY]: "k" });
    expect(seen).toBe(2);
    stop();
    await fakeBrowser.storage.session.set({ [PENDING_KEY]: ["b"] });
    expect(seen).toBe(2);
  });

  it("never polls: nothing fires while nothing changes", async () => {
    let seen = 0;
    const stop = watchPending(() => seen++);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toBe(0);
    stop();
  });
});
