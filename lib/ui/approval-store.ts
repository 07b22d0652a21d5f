import { createStore, type StoreApi } from "zustand/vanilla";
import { errorText } from "../errors";
import type { DecideParams, PendingApproval } from "../messages";
import { callWallet } from "./client";
import { watchPending } from "./pending-watch";

export interface ApprovalStore {
  approvals: PendingApproval[];
  /** Position of the approval on screen in `approvals`. */
  index: number;
  loaded: boolean;
  busy: boolean;
  error?: string;
  refresh(): Promise<void>;
  select(index: number): void;
  unlock(password: string): Promise<void>;
  decide(decision: DecideParams["decision"], alwaysAllowPerDay?: string): Promise<void>;
}

/** The confirmation window's queue of approvals waiting for the person. */
export function createApprovalStore() {
  let inFlight: Promise<void> | undefined;
  let stale = false;
  return createStore<ApprovalStore>()((set, get) => {
    const load = async () => {
      const approvals = await callWallet({ method: "ui_listPending", params: undefined });
      // Stay on the approval the person is reading even when the queue reorders.
      const shownId = get().approvals[get().index]?.id;
      const kept = approvals.findIndex((a) => a.id === shownId);
      const index = kept >= 0 ? kept : Math.min(get().index, Math.max(0, approvals.length - 1));
      set({ approvals, index, loaded: true });
    };
    const act = async (action: () => Promise<unknown>) => {
      if (get().busy) return;
      set({ busy: true, error: undefined });
      try {
        await action();
        await load();
      } catch (error) {
        set({ error: errorText(error) });
      } finally {
        set({ busy: false });
      }
    };
    return {
      approvals: [],
      index: 0,
      loaded: false,
      busy: false,
      // Called on every storage change the window watches: at most one listing at a time, and
      // a change during a listing gets one more after it (that listing may predate the change).
      refresh: () => {
        if (inFlight) {
          stale = true;
          return inFlight;
        }
        inFlight = (async () => {
          do {
            stale = false;
            await load().catch((error: unknown) => set({ error: errorText(error) }));
          } while (stale);
        })().finally(() => {
          inFlight = undefined;
        });
        return inFlight;
      },
      select: (index) => {
        if (index >= 0 && index < get().approvals.length) set({ index });
      },
      unlock: (password) => act(() => callWallet({ method: "ui_unlock", params: { password } })),
      decide: (decision, alwaysAllowPerDay) => {
        const approval = get().approvals[get().index];
        if (!approval) return Promise.resolve();
        const params: DecideParams = { approvalId: approval.id, decision };
        if (alwaysAllowPerDay !== undefined) params.alwaysAllowPerDay = alwaysAllowPerDay;
        return act(() => callWallet({ method: "ui_decide", params }));
      },
    };
  });
}

/**
 * Keeps `store` current: watches what the window shows, then lists the approvals at once
 * (watching first: a change between the first read and the watch would be missed). The
 * window calls it as its script starts, so the listing's round trip to the background runs
 * while React renders for the first time. Returns the function that stops it.
 */
export function followApprovals(store: StoreApi<ApprovalStore>): () => void {
  const refresh = () => void store.getState().refresh();
  const stop = watchPending(refresh);
  refresh();
  return stop;
}
