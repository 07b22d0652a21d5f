import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { PENDING_KEY, watchPending } from "./pending-watch";

describe("watchPending", () => {
  beforeEach(() => {
    fakeBrowser.reset();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it("fires on a change of the pending key and not of others", async () => {
    const seen: number[] = [];
    const stop = watchPending(() => seen.push(Date.now()), 60_000);
    await fakeBrowser.storage.session.set({ other: 1 });
    expect(seen).toHaveLength(0);
    await fakeBrowser.storage.session.set({ [PENDING_KEY]: ["a"] });
    expect(seen).toHaveLength(1);
    stop();
    await fakeBrowser.storage.session.set({ [PENDING_KEY]: ["b"] });
    expect(seen).toHaveLength(1);
  });

  it("polls on the interval until stopped", () => {
    let calls = 0;
    const stop = watchPending(() => calls++, 500);
    vi.advanceTimersByTime(1600);
    expect(calls).toBe(3);
    stop();
    vi.advanceTimersByTime(5000);
    expect(calls).toBe(3);
  });
});
