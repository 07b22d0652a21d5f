import { beforeEach, describe, expect, it } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { STORAGE_KEYS } from "../storage-keys";
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
    await fakeBrowser.storage.session.set({ [STORAGE_KEYS.pending]: ["a"] });
    expect(seen).toBe(1);
    await fakeBrowser.storage.session.set({ [STORAGE_KEYS.session]: "k" });
    expect(seen).toBe(2);
    stop();
    await fakeBrowser.storage.session.set({ [STORAGE_KEYS.pending]: ["b"] });
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
