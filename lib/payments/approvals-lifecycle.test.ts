import { describe, expect, it } from "vitest";
import { recordingWindow, until } from "../../tests/unit-support/payments/test-support";
import { memoryStore } from "../../tests/unit-support/wallet/memory-store";
import type { PendingApproval } from "../messages";
import { STORAGE_KEYS } from "../storage-keys";
import { type ApprovalDecision, ApprovalQueue, type ApprovalWindow } from "./approvals";

function approval(
  id: string,
  origin = "https://agent.example",
): Omit<PendingApproval, "needsUnlock"> {
  return {
    id,
    kind: "payment",
    createdAt: 1,
    origin,
    protocol: "stipendex",
    receiver: { id: "https://api.example.com", verified: true },
    payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
    description: "One web search",
    resource: { kind: "http", method: "GET", url: "https://api.example.com/search" },
    amount: {
      atomic: "5000",
      decimals: 6,
      symbol: "USDC",
      formatted: "0.005",
      network: "eip155:8453",
      networkName: "Base",
      testnet: false,
    },
    currency: "USD",
    remaining: [],
    warnings: ["mainnet"],
    collectableForSeconds: 60,
  };
}

const STILL_WAITING = "still waiting" as const;

/** The decision, or STILL_WAITING when none came within `ms`. */
function within(
  asked: Promise<ApprovalDecision>,
  ms = 300,
): Promise<ApprovalDecision | typeof STILL_WAITING> {
  return Promise.race([
    asked,
    new Promise<typeof STILL_WAITING>((resolve) => setTimeout(() => resolve(STILL_WAITING), ms)),
  ]);
}

describe("the confirmation window across its lifecycle", () => {
  // Firefox's windows.create resolves only after the new window's DOMContentLoaded
  // (ext-windows.js), hundreds of ms after it is on screen: a close in between still declines.
  it("declines what the window asked when the person closes it before windows.create has resolved", async () => {
    const store = memoryStore();
    let resolveOpen: (id: number) => void = () => {};
    const onScreen = new Set<number>();
    const window: ApprovalWindow = {
      open: () =>
        new Promise<number>((resolve) => {
          onScreen.add(7);
          resolveOpen = resolve;
        }),
      exists: async (id) => onScreen.has(id),
      showCount: async () => {},
      close: async (id) => {
        onScreen.delete(id);
      },
    };
    const queue = new ApprovalQueue(store, window);
    const asked = queue.ask(approval("a"));
    await until(() => onScreen.has(7));
    // The person closes the window as it appears (windows.onRemoved fires), then create() resolves.
    onScreen.delete(7);
    const closing = queue.windowClosed(7);
    resolveOpen(7);
    await closing;

    expect(await within(asked)).toEqual({ approvalId: "a", decision: "decline" });
    // Nor is a dead window's id kept as the open one.
    expect(await store.get(STORAGE_KEYS.confirmWindow)).toBeUndefined();
  });

  // The window closes itself once it lists an empty queue; an agent's next paid call right after
  // the approved one lands in the gap: it must not be taken for the person closing the window.
  it("does not decline, nor quiet, a request queued while the window closes itself after the last decision", async () => {
    let now = 1_000_000;
    const windows = recordingWindow();
    const queue = new ApprovalQueue(memoryStore(), windows.window, () => now);
    const first = queue.ask(approval("a"));
    await until(() => windows.opened.length === 1);
    const [windowId = -1] = windows.opened;
    await queue.decide({ approvalId: "a", decision: "approve" });
    expect(await first).toMatchObject({ decision: "approve" });

    // The window saw the empty queue and called window.close(); the agent's next call arrives.
    const next = queue.ask(approval("b"));
    await until(async () => (await queue.pending()).length === 1);
    windows.close(windowId);
    await queue.windowClosed(windowId);

    expect(await within(next)).toBe(STILL_WAITING);
    // And its site was not quieted: a further request opens a window again.
    now += 1_000;
    void queue.ask(approval("c"));
    await until(async () => (await queue.pending()).some((p) => p.id === "c"));
    expect(windows.opened.length).toBeGreaterThan(1);
  });

  // Firefox may never settle a windows.create whose window was closed before its first paint:
  // the queue waits for it at most OPEN_PATIENCE_MS, not until the background restarts.
  it("still records the person's decision on another request while a windows.create never settles", async () => {
    const store = memoryStore();
    let opens = 0;
    const window: ApprovalWindow = {
      open: () => {
        opens += 1;
        // The first window opens normally; the second create() never settles.
        return opens === 1 ? Promise.resolve(41) : new Promise<number>(() => {});
      },
      exists: async () => false,
      showCount: async () => {},
      close: async () => {},
    };
    const queue = new ApprovalQueue(store, window);
    const a = queue.ask(approval("a", "https://one.example"));
    await until(async () => (await queue.pending()).length === 1);
    // Window 41 is gone; another site asks, and its window's create() hangs.
    void queue.ask(approval("b", "https://two.example"));
    await until(() => opens === 2);
    // The person decides "a" (say, in a window the popup opened).
    const decided = queue.decide({ approvalId: "a", decision: "decline" }).then(() => "decided");
    expect(await Promise.race([decided, within(a, 6_000)])).not.toBe(STILL_WAITING);
  }, 10_000);
});
