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
 * The sessions the page's MCP clients opened, by endpoint and
 * `Mcp-Session-Id`: whether the wallet answers their form elicitations, and
 * the request ids of the paid retries sent in them.
 */
export class McpSessions {
  private readonly walletForms = new Map<string, boolean>();
  /** By session and retry id: the page's call each paid retry repeats. */
  private readonly retried = new Map<string, { pageId: JsonRpcId; byPageId: string }>();
  /** By session and the page's id: its call's paid retry. */
  private readonly retryIds = new Map<string, string>();
  private readonly sessionsRetried = new Set<string>();
  /** By session and the page's id: what gives up a tools/call in flight (see callSignal). */
  private readonly calls = new Map<string, AbortController>();

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
   * A request id of its own for the paid retry of the page's call `pageId`.
   * MCP: an id is never used twice in a session, and the server answered the
   * page's already (with its price). Remembered both ways, so the retry's
   * answer on any of the session's streams (one resumed by GET too) reaches
   * the page under the page's id, and the page's cancellation the retry.
   */
  retryIdFor(server: string, sessionId: string | null, pageId: JsonRpcId): string {
    const session = sessionKey(server, sessionId);
    const retryId = `stipendex-retry-${randomId()}`;
    const byPageId = `${session} ${typeof pageId} ${pageId}`;
    this.retried.set(`${session} ${retryId}`, { pageId, byPageId });
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

  /** The page's call a message under `id` answers, when `id` is a paid retry's of the session. */
  pageIdOf(server: string, sessionId: string | null, id: unknown): JsonRpcId | undefined {
    if (typeof id !== "string") return undefined;
    return this.retried.get(`${sessionKey(server, sessionId)} ${id}`)?.pageId;
  }

  /** The id of the paid retry of the page's call `pageId`, when it was retried. */
  retryOf(server: string, sessionId: string | null, pageId: JsonRpcId): string | undefined {
    return this.retryIds.get(`${sessionKey(server, sessionId)} ${typeof pageId} ${pageId}`);
  }

  /**
   * What gives up the page's call `pageId`: its fetch's `signal`, or its
   * client's `notifications/cancelled` (see cancel). The MCP SDK gives a call
   * up (cancelled, or timed out) only so: its fetches carry the transport's
   * signal, not the call's.
   */
  callSignal(
    server: string,
    sessionId: string | null,
    pageId: JsonRpcId,
    signal: AbortSignal | undefined,
  ): AbortSignal {
    const key = `${sessionKey(server, sessionId)} ${typeof pageId} ${pageId}`;
    const controller = new AbortController();
    if (signal?.aborted) controller.abort(signal.reason);
    signal?.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
    this.calls.delete(key);
    this.calls.set(key, controller);
    if (this.calls.size > MAX_RETRIES) this.calls.delete(this.calls.keys().next().value ?? "");
    return controller.signal;
  }

  /** The page's client cancelled its call `pageId` (`notifications/cancelled`): given up here too. */
  cancel(server: string, sessionId: string | null, pageId: JsonRpcId, reason: unknown): void {
    const key = `${sessionKey(server, sessionId)} ${typeof pageId} ${pageId}`;
    this.calls.get(key)?.abort(reason);
    this.calls.delete(key);
  }

  /** The page's call `pageId` was answered: nothing is left to give up. */
  callEnded(server: string, sessionId: string | null, pageId: JsonRpcId): void {
    this.calls.delete(`${sessionKey(server, sessionId)} ${typeof pageId} ${pageId}`);
  }

  /** Whether a paid retry was sent in the session (its streams may answer it). */
  retriedIn(server: string, sessionId: string | null): boolean {
    return this.sessionsRetried.has(sessionKey(server, sessionId));
  }
}

function sessionKey(server: string, sessionId: string | null): string {
  return `${server} ${sessionId ?? ""}`;
}
