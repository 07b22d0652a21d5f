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

/**
 * How long a listing is waited for before the next one may start: a request
 * to a worker stopped while it answered may never be answered (seen in
 * Chromium), and the window must not stay behind the queue for good.
 */
export const LISTING_PATIENCE_MS = 3_000;

/** The confirmation window's queue of approvals waiting for the person. */
export function createApprovalStore() {
  let inFlight: Promise<void> | undefined;
  let stale = false;
  /** Listings started; only the latest one's answer is shown (one waited out may answer late). */
  let listings = 0;
  return createStore<ApprovalStore>()((set, get) => {
    const load = async () => {
      const listing = ++listings;
      const approvals = await callWallet({ method: "ui_listPending", params: undefined });
      if (listing !== listings) return;
      // Stay on the approval the person is reading even when the queue reorders.
      const shownId = get().approvals[get().index]?.id;
      const kept = approvals.findIndex((a) => a.id === shownId);
      const index = kept >= 0 ? kept : Math.min(get().index, Math.max(0, approvals.length - 1));
      set({ approvals, index, loaded: true });
    };
    /** Lists once, waiting LISTING_PATIENCE_MS at most; false when it was waited out. */
    const listPatiently = () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waitedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), LISTING_PATIENCE_MS);
      });
      const listed = load().then(
        () => true,
        (error: unknown) => {
          set({ error: errorText(error) });
          return true;
        },
      );
      return Promise.race([listed, waitedOut]).finally(() => clearTimeout(timer));
    };
    /** Runs `action` on the approval `about`, then lists again, whether it worked or not. */
    const act = async (action: () => Promise<unknown>, about?: string) => {
      if (get().busy) return;
      set({ busy: true, error: undefined });
      let failure: string | undefined;
      try {
        await action();
      } catch (error) {
        failure = errorText(error);
      }
      // One waited out is listed again, as a change is: the queue may have moved meanwhile.
      if (!(await listPatiently())) void get().refresh();
      // An approval answered meanwhile (a restarted worker asked again, and it was decided
      // there) leaves the queue: the refusal to decide it twice is no news to the person.
      const gone = about !== undefined && !get().approvals.some((a) => a.id === about);
      set({ busy: false, error: gone ? undefined : (failure ?? get().error) });
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
            if (!(await listPatiently())) stale = true;
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
        return act(() => callWallet({ method: "ui_decide", params }), approval.id);
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
