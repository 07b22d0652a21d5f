import { z } from "zod";
import type { DecideParams } from "../messages";
import { isRecord } from "../protocol/rails/is-record";
import { RecentKeys } from "../recent-keys";
import { STORAGE_KEYS } from "../storage-keys";
import type { KeyValueStore } from "../wallet/key-value-store";
import { readItem, removeItem, storageItem, writeItem } from "../wallet/storage-item";
import type { ApprovalView } from "./approval-view";
import { PaymentError, unknownPayment } from "./errors";

// storage.session: outlives a stopped worker, not the browser. Only this queue writes these.
export const PENDING_ITEM = storageItem<Stored[]>(STORAGE_KEYS.pending, (stored) =>
  Array.isArray(stored) ? stored.filter(isStoredApproval) : undefined,
);
export const DECISIONS_ITEM = storageItem<Record<string, ApprovalDecision>>(
  STORAGE_KEYS.decisions,
  (stored) => {
    const parsed = decisionsSchema.safeParse(stored);
    return parsed.success ? parsed.data : undefined;
  },
);
export const CONFIRM_WINDOW_ITEM = storageItem<number>(STORAGE_KEYS.confirmWindow, (stored) =>
  typeof stored === "number" ? stored : undefined,
);

const QUIET_ORIGINS_ITEM = storageItem<Record<string, number>>(
  STORAGE_KEYS.quietOrigins,
  (stored) => {
    const parsed = z.record(z.string(), z.number()).safeParse(stored);
    return parsed.success ? parsed.data : undefined;
  },
);

/** The longest the queue waits for the browser to say the confirmation window opened. */
const OPEN_PATIENCE_MS = 5_000;

/**
 * How long a site's new requests, and those of the tab they came from, wait
 * behind the toolbar badge, without opening the window, once the person
 * closed the window on them: a page cannot pop it straight back in front of
 * them, nor by asking again from frames of fresh subdomains.
 */
export const QUIET_AFTER_CLOSE_MS = 60_000;

/** A decision from the confirmation window, as it crosses runtime messaging and as it is kept. */
export const decideParamsSchema = z.object({
  approvalId: z.string().min(1).max(128),
  decision: z.enum(["approve", "decline"]),
  alwaysAllowPerDay: z
    .string()
    .regex(/^\d{1,30}$/, "must be a whole number of micro units")
    .optional(),
});

/** A decision as kept: the person's, or a decline because the page withdrew its request. */
/** `withdrawn`: its page gave it up; `expired`: its price did, before the person decided. */
export type ApprovalDecision = DecideParams & { withdrawn?: true; expired?: true };

/**
 * What a waiting request is woken with: a decision, or word that the wallet
 * was unlocked, for a request asked only because it was locked (`paidOnUnlock`):
 * its caller looks again whether the policy pays it, and else asks on.
 */
export type ApprovalAnswer = ApprovalDecision | { approvalId: string; unlocked: true };

const decisionsSchema = z.record(
  z.string(),
  decideParamsSchema.extend({
    withdrawn: z.literal(true).optional(),
    expired: z.literal(true).optional(),
  }),
);

/** How many withdrawals of approvals not yet asked for are remembered (a page's bursts of aborts). */
const EARLY_WITHDRAWALS_KEPT = 64;

/** An approval as this queue stored it: the window shows it as is. */
function isStoredApproval(value: unknown): value is Stored {
  return isRecord(value) && typeof value.id === "string" && typeof value.origin === "string";
}

/** How many of one site's requests may wait for the person at once. */
export const MAX_WAITING_PER_ORIGIN = 5;
/**
 * How many requests of one tab, whatever their sites, may wait at once: a page's frames of
 * many subdomains would each have MAX_WAITING_PER_ORIGIN (red-team review: nine tabs of such
 * frames kept 225 requests waiting, and the person's Decline went unanswered for a minute).
 */
export const MAX_WAITING_PER_TAB = 10;

/** Why approval `id` may not wait (its site or tab has as many waiting as it may), if so. */
function fullBecause(
  pending: readonly Stored[],
  { id, origin, tabId }: Requester,
): string | undefined {
  const others = pending.filter((p) => p.id !== id);
  if (others.filter((p) => p.origin === origin).length >= MAX_WAITING_PER_ORIGIN) {
    return `${origin} already has ${MAX_WAITING_PER_ORIGIN} payment requests waiting for your decision; retry when one of them is answered`;
  }
  if (
    tabId !== undefined &&
    others.filter((p) => p.tabId === tabId).length >= MAX_WAITING_PER_TAB
  ) {
    return `The tab of ${origin} already has ${MAX_WAITING_PER_TAB} payment requests waiting for your decision; retry when one of them is answered`;
  }
  return undefined;
}

export interface ApprovalWindow {
  /** Opens the confirmation window; resolves with its id. */
  open(): Promise<number | undefined>;
  /**
   * Whether the window is still open. Never brings it forward: a request a
   * page fires must not pull the person's typing or clicks into the window.
   */
  exists(windowId: number): Promise<boolean>;
  /** Shows how many approvals wait (the toolbar badge); 0 clears it. */
  showCount(count: number): Promise<void>;
  /** Closes the window (nothing is left in it to decide). */
  close(windowId: number): Promise<void>;
  /** Brings the window forward: only when the person asked to see it (the popup's button). */
  focus(windowId: number): Promise<void>;
}

/** A request as the queue keeps it: what the window shows, and who asked (Requester). */
type Stored = ApprovalView & Omit<Requester, "id" | "origin">;

/** Who is asking: the approval's id, the site, and its tab when it came from one. */
export interface Requester {
  id: string;
  origin: string;
  tabId?: number;
  /** The person's own click in the wallet (the popup's Pay) asked: nothing quiets its window. */
  byPerson?: true;
}

/**
 * The person's queue of decisions. Pending approvals and decisions live in
 * storage.session, so an approval survives the worker being stopped: a caller
 * that asks again after a restart finds its approval (or its decision) there.
 * All pending approvals share one confirmation window: a new request opens
 * it when it is not open, and otherwise only queues and updates the count.
 */
export class ApprovalQueue {
  private readonly waiters = new Map<string, ((answer: ApprovalAnswer) => void)[]>();
  private writes: Promise<unknown> = Promise.resolve();
  /** Approvals withdrawn before they were asked for, by id. */
  private readonly withdrawnEarly = new RecentKeys(EARLY_WITHDRAWALS_KEPT);

  constructor(
    private readonly session: KeyValueStore,
    private readonly window: ApprovalWindow,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Waits for the person's decision on `approval` (asking once, however often it is called),
   * or, for one asked only because the wallet was locked, for it to be unlocked.
   */
  async ask(approval: Stored): Promise<ApprovalAnswer> {
    // Waiting and in line from the call on: an unlock (or a decision) queued after the call
    // finds the request where it looks (black-box review: a burst unlocked at once, one stuck).
    const waiting = new Promise<ApprovalAnswer>((resolve) => {
      this.waiters.set(approval.id, [...(this.waiters.get(approval.id) ?? []), resolve]);
    });
    await this.serial(async () => {
      const decided = (await this.decisions())[approval.id];
      if (decided) {
        this.wake(decided);
        return;
      }
      const pending = await this.pending();
      // Withdrawn while it was being prepared: the person is never asked, and a window
      // opened for it alone (prepareWindow) goes.
      if (this.withdrawnEarly.take(approval.id)) {
        this.wake({ approvalId: approval.id, decision: "decline", withdrawn: true });
        if (pending.length === 0) await this.closeWindow();
        return;
      }
      // Counted from what is stored, so a restarted worker cannot be flooded afresh.
      const full = fullBecause(pending, approval);
      if (full !== undefined) {
        this.waiters.delete(approval.id);
        throw new PaymentError("too-many-waiting", full);
      }
      // Counted on the badge either way; the popup opens the window for it. The window is
      // opened first: it takes the browser tens of ms, and lists the queue only once loaded.
      const quiet = await this.isQuiet(approval);
      const showing = quiet ? undefined : this.showWindow();
      showing?.catch(() => undefined);
      try {
        if (!pending.some((p) => p.id === approval.id)) {
          await this.savePending(queued(pending, quiet ? waitedUnshown(approval) : approval));
        }
      } catch (error) {
        this.waiters.delete(approval.id);
        // Remembered before the next step runs (it would open a second one), and closed if
        // it would show nothing: the request is not in it.
        await showing?.catch(() => undefined);
        if (pending.length === 0) await this.closeWindow().catch(() => undefined);
        throw error;
      }
      await showing;
    });
    return waiting;
  }

  /**
   * Opens the window ahead of approval `id`, which `origin` is about to be asked about, unless
   * ask() would not (the person decided it already, its page withdrew it, the site is quiet or
   * has MAX_WAITING_PER_ORIGIN requests waiting) or it is open: the window then loads while
   * the request's view is put together. A request that never reaches ask() leaves it to
   * closeIfEmpty.
   */
  async prepareWindow(requester: Requester): Promise<void> {
    await this.serial(async () => {
      if ((await this.decisions())[requester.id] || this.withdrawnEarly.has(requester.id)) return;
      if (fullBecause(await this.pending(), requester) !== undefined) return;
      if (await this.isQuiet(requester)) return;
      await this.showWindow();
    });
  }

  /** Closes the window when nothing waits in it: one prepared for a request that then failed. */
  async closeIfEmpty(): Promise<void> {
    await this.serial(async () => {
      if ((await this.pending()).length === 0) await this.closeWindow();
    });
  }

  /**
   * The person asked to see what waits (the popup's button, for a site whose requests wait
   * behind the badge): the window is opened, or brought forward, as the queue's own, so that
   * closing it declines what it showed and the next request does not open a second one.
   */
  async show(): Promise<void> {
    await this.serial(async () => {
      const existing = await readItem(this.session, CONFIRM_WINDOW_ITEM);
      if (existing !== undefined && (await this.window.exists(existing))) {
        await this.window.focus(existing);
        return;
      }
      await this.showWindow();
    });
  }

  /**
   * Records a decision from the confirmation window and wakes whoever waits for it. A request
   * that waited unshown gives its site no budget ("always allow"), whatever the window sent.
   */
  async decide(params: DecideParams): Promise<void> {
    const decided = await this.serial(async () => {
      const pending = await this.pending();
      const asked = pending.find((p) => p.id === params.approvalId);
      if (!asked) throw unknownPayment(params.approvalId);
      const { alwaysAllowPerDay: _dropped, ...withoutBudget } = params;
      const decision = asked.warnings.includes("waited-unshown") ? withoutBudget : params;
      const left = await this.record(decision, pending, await this.decisions());
      // Closed here, forgotten first: the window closing on its own once it lists nothing would
      // be taken for the person closing it, declining a request queued meanwhile it never showed.
      if (left.length === 0) await this.closeWindow();
      return decision;
    });
    this.wake(decided);
  }

  /**
   * The page gave up the request (or, `why` "expired", its price ran out): a
   * decision still waiting for the person is declined as such (the window drops
   * it), and one not asked for yet is declined the moment it is. Nothing changes
   * once the person has decided.
   */
  async withdraw(approvalId: string, why: "withdrawn" | "expired" = "withdrawn"): Promise<void> {
    const withdrawn: ApprovalDecision = { approvalId, decision: "decline", [why]: true };
    const waited = await this.serial(async () => {
      const decisions = await this.decisions();
      if (decisions[approvalId]) return false;
      const pending = await this.pending();
      if (!pending.some((p) => p.id === approvalId)) {
        this.withdrawnEarly.add(approvalId);
        return false;
      }
      const left = await this.record(withdrawn, pending, decisions);
      // Nobody decided: the window that asked goes, as it does after the person's last decision.
      if (left.length === 0) await this.closeWindow();
      return true;
    });
    if (waited) this.wake(withdrawn);
  }

  /**
   * The payment no longer waits for the person: a budget they set since
   * covers it (a restarted worker, asked again, approved it on that budget).
   * Its request leaves the window undecided, any answer kept for it goes, and
   * a window left with nothing closes: nobody is offered to decline a
   * payment already signed.
   */
  async drop(approvalId: string): Promise<void> {
    await this.serial(async () => {
      const { [approvalId]: kept, ...decisions } = await this.decisions();
      if (kept) await writeItem(this.session, DECISIONS_ITEM, decisions);
      const pending = await this.pending();
      if (!pending.some((p) => p.id === approvalId)) return;
      const left = pending.filter((p) => p.id !== approvalId);
      await this.savePending(left);
      if (left.length === 0) await this.closeWindow();
    });
  }

  /**
   * The wallet was unlocked: requests asked only because it was locked (a budget covered
   * them) are woken, undecided and still in the window, for their callers to look again.
   */
  async unlocked(): Promise<void> {
    const woken = await this.serial(async () => {
      const decisions = await this.decisions();
      return (await this.pending()).filter((p) => p.paidOnUnlock && !decisions[p.id]);
    });
    for (const { id } of woken) this.wake({ approvalId: id, unlocked: true });
  }

  /**
   * Takes approval `id` out of the window undecided, as the policy pays it after all; false,
   * leaving it as it is, when the person decided it first (their decision stands).
   */
  async leave(approvalId: string): Promise<boolean> {
    return this.serial(async () => {
      if ((await this.decisions())[approvalId]) return false;
      const pending = await this.pending();
      const left = pending.filter((p) => p.id !== approvalId);
      if (left.length === pending.length) return true;
      await this.savePending(left);
      if (left.length === 0) await this.closeWindow();
      return true;
    });
  }

  /** Forgets a decision once it has been acted on. */
  async consume(approvalId: string): Promise<void> {
    await this.serial(async () => {
      const { [approvalId]: _done, ...rest } = await this.decisions();
      await writeItem(this.session, DECISIONS_ITEM, rest);
    });
  }

  async pending(): Promise<Stored[]> {
    return (await readItem(this.session, PENDING_ITEM)) ?? [];
  }

  /** Closing the confirmation window declines everything still waiting in it. */
  async windowClosed(windowId: number): Promise<void> {
    // In line with the asks: one whose window is still opening (Firefox resolves windows.create
    // only once the window has loaded) has stored its id by the time this looks.
    const declined = await this.serial(async () => {
      if ((await readItem(this.session, CONFIRM_WINDOW_ITEM)) !== windowId) return [];
      await removeItem(this.session, CONFIRM_WINDOW_ITEM);
      const pending = await this.pending();
      await this.quiet(pending.flatMap(quietKeys));
      return pending;
    });
    for (const approval of declined) {
      await this.decide({ approvalId: approval.id, decision: "decline" });
    }
  }

  /** The person closed the window on these sites' and tabs' requests: theirs do not reopen it for a while. */
  private async quiet(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const now = this.now();
    const kept = Object.entries((await readItem(this.session, QUIET_ORIGINS_ITEM)) ?? {}).filter(
      ([, until]) => until > now,
    );
    const until = now + QUIET_AFTER_CLOSE_MS;
    await writeItem(this.session, QUIET_ORIGINS_ITEM, {
      ...Object.fromEntries(kept),
      ...Object.fromEntries(keys.map((key) => [key, until])),
    });
  }

  private async isQuiet(requester: Omit<Requester, "id">): Promise<boolean> {
    if (requester.byPerson) return false;
    const quiet = (await readItem(this.session, QUIET_ORIGINS_ITEM)) ?? {};
    const now = this.now();
    return quietKeys(requester).some((key) => (quiet[key] ?? 0) > now);
  }

  /** Keeps `decision` and takes its approval out of `pending`; resolves with what still waits. */
  private async record(
    decision: ApprovalDecision,
    pending: Stored[],
    decisions: Record<string, ApprovalDecision>,
  ): Promise<Stored[]> {
    await writeItem(this.session, DECISIONS_ITEM, {
      ...decisions,
      [decision.approvalId]: decision,
    });
    const left = pending.filter((p) => p.id !== decision.approvalId);
    await this.savePending(left);
    return left;
  }

  private async decisions(): Promise<Record<string, ApprovalDecision>> {
    return (await readItem(this.session, DECISIONS_ITEM)) ?? {};
  }

  private async savePending(pending: Stored[]): Promise<void> {
    await writeItem(this.session, PENDING_ITEM, pending);
    await this.window.showCount(pending.length);
  }

  private async closeWindow(): Promise<void> {
    const open = await readItem(this.session, CONFIRM_WINDOW_ITEM);
    if (open === undefined) return;
    // Forgotten first: its closing is then not taken for the person closing it (windowClosed).
    await removeItem(this.session, CONFIRM_WINDOW_ITEM);
    await this.window.close(open);
  }

  private async showWindow(): Promise<void> {
    const existing = await readItem(this.session, CONFIRM_WINDOW_ITEM);
    if (existing !== undefined && (await this.window.exists(existing))) return;
    // Bounded: a window that never says it opened (Firefox, closed before its first paint) must
    // not hold every later decision behind it. One that opens after is not known to the queue.
    const patience = AbortSignal.timeout(OPEN_PATIENCE_MS);
    const opened = await Promise.race([
      this.window.open(),
      new Promise<undefined>((resolve) => {
        patience.addEventListener("abort", () => resolve(undefined), { once: true });
      }),
    ]);
    if (opened !== undefined) await writeItem(this.session, CONFIRM_WINDOW_ITEM, opened);
  }

  private wake(answer: ApprovalAnswer): void {
    for (const resolve of this.waiters.get(answer.approvalId) ?? []) resolve(answer);
    this.waiters.delete(answer.approvalId);
  }

  /** Read-modify-write of storage.session, one at a time. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.writes.then(work, work);
    this.writes = next.catch(() => undefined);
    return next;
  }
}

/**
 * A request the person was not shown when it came (its site or tab quiet after they closed
 * the window on it): it says so in the window, and never comes first in it.
 */
function waitedUnshown(approval: Stored): Stored {
  return { ...approval, warnings: [...approval.warnings, "waited-unshown"] };
}

/**
 * `pending` with `approval` added: after the requests that opened the window, before those that
 * waited unshown. A window opened by a request shows that request first, not one a page kept
 * waiting behind the badge for when the person opens the window for something else (red-team
 * review: a hostile page's parked price was first when the person's own agent asked).
 */
function queued(pending: readonly Stored[], approval: Stored): Stored[] {
  const unshown = (p: Stored) => p.warnings.includes("waited-unshown");
  const all = [...pending, approval];
  return [...all.filter((p) => !unshown(p)), ...all.filter(unshown)];
}

/** What a closed window quiets of a request: its site, and its tab when it came from one. */
function quietKeys({ origin, tabId }: Omit<Requester, "id">): string[] {
  return tabId === undefined ? [origin] : [origin, `tab ${tabId}`];
}
