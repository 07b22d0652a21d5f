import { randomId } from "../random-id";
import { isObject, type JsonRpcId, type JsonRpcRequest } from "./jsonrpc";

/** The first MCP revision with elicitation; revisions are dates, so later ones compare greater. */
const FIRST_ELICITING_REVISION = "2025-06-18";

/**
 * Reads an `initialize` request and, when the page's client does not take
 * form-mode elicitations on a revision that has them, declares form mode on
 * its behalf: `body` is then the request to send instead, and the wallet
 * answers every form elicitation of that session itself (payment
 * confirmations in its window, the rest declined), so the page's client
 * never receives one it did not ask for.
 */
export function declareElicitation(request: JsonRpcRequest): {
  walletAnswersForms: boolean;
  body?: string;
} {
  const params = request.params ?? {};
  const capabilities = isObject(params.capabilities) ? params.capabilities : {};
  const modes = isObject(capabilities.elicitation) ? capabilities.elicitation : undefined;
  // 2025-11-25: a bare `elicitation: {}` means form mode (what 2025-06-18 clients send).
  const pageTakesForms =
    modes !== undefined && (isObject(modes.form) || (!("form" in modes) && !("url" in modes)));
  const revision = params.protocolVersion;
  if (pageTakesForms || typeof revision !== "string" || revision < FIRST_ELICITING_REVISION) {
    return { walletAnswersForms: false };
  }
  const elicitation = { ...modes, form: {} };
  return {
    walletAnswersForms: true,
    body: JSON.stringify({
      ...request,
      params: { ...params, capabilities: { ...capabilities, elicitation } },
    }),
  };
}

/** What becomes of one `elicitation/create`. */
export type ElicitationRoute =
  /** A payment confirmation: the wallet's window (or a budget) answers it. */
  | "wallet"
  /** A form the wallet declared for a page that cannot fill it: declined. */
  | "decline"
  /** Passed to the page's client untouched (URL mode always is). */
  | "page";

export function routeElicitation(
  params: Record<string, unknown>,
  walletAnswersForms: boolean,
): ElicitationRoute {
  if ((params.mode ?? "form") !== "form") return "page";
  if (isObject(params._meta) && "stipendex/quote" in params._meta) return "wallet";
  return walletAnswersForms ? "decline" : "page";
}

/** How many sessions a page keeps track of; the oldest is forgotten first. */
const MAX_SESSIONS = 64;

/** How many paid retries' ids a page keeps; the oldest is forgotten first. */
const MAX_RETRIES = 256;

/**
 * One request of one of the page's MCP clients: its endpoint, its session,
 * the signal its fetches carry (the SDK gives each client, each transport,
 * one of its own) and its JSON-RPC id.
 */
export interface ClientRequest {
  server: string;
  sessionId: string | null;
  signal: AbortSignal | undefined;
  id: JsonRpcId;
}

/** A paid retry of a page's tools/call: the page's request id, and the payment it carries. */
export interface PaidRetry {
  pageId: JsonRpcId;
  paymentId: string;
}

/**
 * Goes on with a call's stream that the page's client resumed by GET (its
 * `Last-Event-ID` the stream's last event): the page's copy of `response`.
 * `signal`: the resuming fetch's.
 */
export type Resumption = (response: Response, signal: AbortSignal | undefined) => Promise<Response>;

/** A tools/call in flight: what gives it up, and how its registration ends. */
export interface CallInFlight {
  signal: AbortSignal;
  end(): void;
}

/**
 * The sessions the page's MCP clients opened, by endpoint and
 * `Mcp-Session-Id`: whether the wallet answers their form elicitations, the
 * tools/calls in flight, and the request ids of the paid retries sent.
 */
export class McpSessions {
  private readonly walletForms = new Map<string, boolean>();
  /** By session and retry id: the page's call each paid retry repeats, and the payment it carries. */
  private readonly retried = new Map<string, PaidRetry & { byPageId: string }>();
  /** By client request (requestKey): its call's paid retry. */
  private readonly retryIds = new Map<string, string>();
  private readonly sessionsRetried = new Set<string>();
  /** By session and event id: the call streams that ended unanswered there (see awaitResumption). */
  private readonly resumptions = new Map<string, Resumption>();
  /** By client request (requestKey): what gives up a tools/call in flight (see callSignal). */
  private readonly calls = new Map<string, { controller: AbortController; detach(): void }>();
  /** A number for each client's signal, so two clients' requests of one id are told apart. */
  private readonly clients = new WeakMap<AbortSignal, number>();
  private clientCount = 0;

  remember(server: string, sessionId: string | null, walletAnswersForms: boolean): void {
    const key = sessionKey(server, sessionId);
    this.walletForms.delete(key);
    this.walletForms.set(key, walletAnswersForms);
    if (this.walletForms.size > MAX_SESSIONS) {
      const oldest = this.walletForms.keys().next().value;
      if (oldest !== undefined) this.walletForms.delete(oldest);
    }
  }

  /** Whether the wallet answers the session's forms; undefined when the page never initialized it here. */
  walletAnswersForms(server: string, sessionId: string | null): boolean | undefined {
    return this.walletForms.get(sessionKey(server, sessionId));
  }

  /**
   * A request id of its own for the paid retry of the page's call `request`.
   * MCP: an id is never used twice in a session, and the server answered the
   * page's already (with its price). Remembered both ways, so the retry's
   * answer on any of the session's streams (one resumed by GET too) reaches
   * the page under the page's id, and the page's cancellation the retry.
   */
  retryIdFor(request: ClientRequest, paymentId: string): string {
    const session = sessionKey(request.server, request.sessionId);
    const retryId = `stipendex-retry-${randomId()}`;
    const byPageId = this.requestKey(request);
    this.retried.set(`${session} ${retryId}`, { pageId: request.id, paymentId, byPageId });
    this.retryIds.set(byPageId, retryId);
    this.sessionsRetried.delete(session);
    this.sessionsRetried.add(session);
    if (this.retried.size > MAX_RETRIES) {
      const oldest = this.retried.entries().next().value;
      if (oldest) {
        this.retried.delete(oldest[0]);
        this.retryIds.delete(oldest[1].byPageId);
      }
    }
    if (this.sessionsRetried.size > MAX_SESSIONS) {
      this.sessionsRetried.delete(this.sessionsRetried.values().next().value ?? "");
    }
    return retryId;
  }

  /** The paid retry a message under `id` answers, when `id` is one of the session's. */
  paidRetry(server: string, sessionId: string | null, id: unknown): PaidRetry | undefined {
    if (typeof id !== "string") return undefined;
    const retry = this.retried.get(`${sessionKey(server, sessionId)} ${id}`);
    return retry && { pageId: retry.pageId, paymentId: retry.paymentId };
  }

  /** The id of the paid retry of the page's call `request`, when it was retried. */
  retryOf(request: ClientRequest): string | undefined {
    return this.retryIds.get(this.requestKey(request));
  }

  /**
   * Registers a tools/call before it is sent: what gives it up is its fetch's
   * signal, or its client's `notifications/cancelled` (see cancel). The MCP
   * SDK gives a call up (cancelled, or timed out) only so: its fetches carry
   * the transport's signal, not the call's. `end()` once it is answered.
   */
  callSignal(request: ClientRequest): CallInFlight {
    const key = this.requestKey(request);
    const { signal } = request;
    const controller = new AbortController();
    const follow = () => controller.abort(signal?.reason);
    if (signal?.aborted) follow();
    signal?.addEventListener("abort", follow, { once: true });
    const detach = () => signal?.removeEventListener("abort", follow);
    this.endCall(key);
    this.calls.set(key, { controller, detach });
    if (this.calls.size > MAX_RETRIES) this.endCall(this.calls.keys().next().value ?? "");
    return {
      signal: controller.signal,
      end: () => {
        if (this.calls.get(key)?.controller === controller) this.endCall(key);
      },
    };
  }

  /** The page's client cancelled its call `request` (`notifications/cancelled`): given up here too. */
  cancel(request: ClientRequest, reason: unknown): void {
    const key = this.requestKey(request);
    this.calls.get(key)?.controller.abort(reason);
    this.endCall(key);
  }

  /**
   * A call's stream ended without the call's answer, after the event
   * `eventId` (the last one the page was handed): a server that polls (MCP
   * 2025-11-25) answers on the stream the page's client resumes from there by
   * GET, which `resume` then takes.
   */
  awaitResumption(
    server: string,
    sessionId: string | null,
    eventId: string,
    resume: Resumption,
  ): void {
    const key = `${sessionKey(server, sessionId)} ${eventId}`;
    this.resumptions.delete(key);
    this.resumptions.set(key, resume);
    if (this.resumptions.size > MAX_RETRIES) {
      this.resumptions.delete(this.resumptions.keys().next().value ?? "");
    }
  }

  /**
   * The resumption of the call stream a GET with `lastEventId` resumes, taken:
   * a stream goes on once from one event (its price is never paid twice).
   * With `only`, taken only if it is that one.
   */
  takeResumption(
    server: string,
    sessionId: string | null,
    lastEventId: string,
    only?: Resumption,
  ): Resumption | undefined {
    const key = `${sessionKey(server, sessionId)} ${lastEventId}`;
    const resume = this.resumptions.get(key);
    if (resume === undefined || (only !== undefined && resume !== only)) return undefined;
    this.resumptions.delete(key);
    return resume;
  }

  /** Whether a paid retry was sent in the session (its streams may answer it). */
  retriedIn(server: string, sessionId: string | null): boolean {
    return this.sessionsRetried.has(sessionKey(server, sessionId));
  }

  private endCall(key: string): void {
    this.calls.get(key)?.detach();
    this.calls.delete(key);
  }

  /**
   * A request's key: its session, its client, its id. Two clients of a server
   * without sessions number their requests alike; their signals tell them apart.
   */
  private requestKey({ server, sessionId, signal, id }: ClientRequest): string {
    let client = 0;
    if (signal) {
      client = this.clients.get(signal) ?? ++this.clientCount;
      this.clients.set(signal, client);
    }
    return `${sessionKey(server, sessionId)} ${client} ${typeof id} ${id}`;
  }
}

function sessionKey(server: string, sessionId: string | null): string {
  return `${server} ${sessionId ?? ""}`;
}
