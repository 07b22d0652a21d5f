import { isObject, type JsonRpcRequest } from "./jsonrpc";

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

/**
 * The sessions the page's MCP clients opened, by endpoint and
 * `Mcp-Session-Id`: whether the wallet answers their form elicitations.
 */
export class McpSessions {
  private readonly walletForms = new Map<string, boolean>();

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
}

function sessionKey(server: string, sessionId: string | null): string {
  return `${server} ${sessionId ?? ""}`;
}
