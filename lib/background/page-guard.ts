import { ErrorCode, type PageMethod, type PageParams, type PayParams } from "../messages";
import { type RateLimit, RateLimiter } from "../rate-limit";
import { type PendingLimit, PendingLimiter } from "./pending-limit";
import type { PageContext } from "./router";
import { RpcError } from "./rpc-error";

export interface PageLimits {
  /** Every page request, per origin. */
  requests: RateLimit;
  /** Requests that start a payment or confirm one (stipendex_pay, stipendex_elicit), per origin. */
  payments: RateLimit;
  /** Of those, how many may wait (for the person, mostly) at once. */
  pending: PendingLimit;
}

const MINUTE = 60_000;

/**
 * An agent paying ten calls a second all day, 32 at a time, stays within these
 * (each payment is a pay and a receipt). Flooding the person is stopped by the
 * approval queue (MAX_WAITING_PER_ORIGIN in lib/payments/approvals.ts), not by the rate.
 */
export const DEFAULT_PAGE_LIMITS: PageLimits = {
  requests: { limit: 1200, windowMs: MINUTE, maxKeys: 512 },
  payments: { limit: 600, windowMs: MINUTE, maxKeys: 512 },
  // In flight at once per site, auto-approved or not: room for an agent's parallel calls.
  // What waits for the person is held to MAX_WAITING_PER_ORIGIN by the approval queue.
  // One tab's frames of many sites hold a few sites' room, so other tabs (and the tab's own
  // page) keep theirs.
  pending: { perKey: 32, maxKeys: 64, keysPerGroup: 4 },
};

const PAYMENT_METHODS: ReadonlySet<PageMethod> = new Set(["stipendex_pay", "stipendex_elicit"]);

/**
 * What one site may ask of the background: so many requests a minute, fewer
 * payments, and only so many payments in flight at once, so that no page (nor
 * a paid server it talks to) can flood the wallet's memory. Kept in the
 * worker's memory: a restarted worker starts afresh (the approval queue's own
 * limit, kept in storage, does not).
 */
export class PageGuard {
  private readonly requests: RateLimiter;
  private readonly payments: RateLimiter;
  private readonly pending: PendingLimiter;
  private elicitations = 0;

  constructor(limits: PageLimits = DEFAULT_PAGE_LIMITS, now: () => number = Date.now) {
    this.requests = new RateLimiter(limits.requests, now);
    this.payments = new RateLimiter(limits.payments, now);
    this.pending = new PendingLimiter(limits.pending);
  }

  /** Counts a request against its origin's rate; first, before its params are even read. */
  admit(origin: string): void {
    const wait = this.requests.take(origin);
    if (wait > 0) throw rateLimited(`requests from ${origin}`, this.requests.rate, wait);
  }

  /** Runs a handler; a payment request holds one of its origin's pending slots until answered. */
  run<M extends PageMethod, T>(
    context: PageContext,
    method: M,
    params: PageParams<M>,
    task: () => Promise<T>,
  ): Promise<T> {
    if (!PAYMENT_METHODS.has(method)) return task();
    const { origin, tabId, frameId } = context;
    // A pay is known by its frame and requestId, as the engine resumes it; an elicitation has no id.
    const id =
      method === "stipendex_pay"
        ? `pay ${tabId ?? "-"} ${frameId ?? "-"} ${(params as PayParams).requestId}`
        : `elicit ${++this.elicitations}`;
    // The relay sending a pay again (it lost the answer) starts nothing new: it joins the run
    // in flight, uncounted, and gets its answer. A tab's frames share its group's room; the
    // tab's own page is never kept waiting by the frames it embeds.
    const tab = tabId === undefined || frameId === 0 ? undefined : String(tabId);
    if (!this.pending.has(origin, id)) this.startPayment(origin, id, tab);
    return this.pending.run(origin, id, task, tab);
  }

  /** Counts a new payment request against its origin's and its tab's limits, or says which it exceeds. */
  private startPayment(origin: string, id: string, tab: string | undefined): void {
    const refusal = this.pending.refusal(origin, id, tab);
    if (refusal === "key-full") {
      throw new RpcError(
        ErrorCode.TooManyPending,
        `${origin} already has ${this.pending.limit.perKey} payment requests waiting; retry when one of them is answered`,
      );
    }
    if (refusal === "group-full") {
      throw new RpcError(
        ErrorCode.TooManyPending,
        `Payment requests from ${this.pending.limit.keysPerGroup} sites are already waiting in this tab; retry when one of them is answered`,
      );
    }
    if (refusal === "too-many-keys") {
      throw new RpcError(
        ErrorCode.TooManyPending,
        `Payment requests from ${this.pending.limit.maxKeys} sites are already waiting; retry when one of them is answered`,
      );
    }
    const wait = this.payments.take(origin);
    if (wait > 0) throw rateLimited(`payment requests from ${origin}`, this.payments.rate, wait);
  }
}

function rateLimited(what: string, rate: RateLimit, retryAfterMs: number): RpcError {
  return new RpcError(
    ErrorCode.RateLimited,
    `Too many ${what}: the wallet takes ${rate.limit} per ${rate.windowMs / 1000} s from one site; retry in ${Math.ceil(retryAfterMs / 1000)} s`,
    { data: { retryAfterMs } },
  );
}
