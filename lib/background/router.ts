import {
  type BackgroundMessage,
  type ChannelRequest,
  ErrorCode,
  type PageMethod,
  type PageMethods,
  type PageParams,
  PROVIDER_VERSION,
  type ProxyStatus,
  type UiMethod,
  type UiMethods,
  type WireResponse,
} from "../messages";
import { proxyCaller } from "../wallet/budget-origin";
import { countRequest, noteHandlingTime, UNKNOWN_METHOD } from "./diagnostics";
import { PageGuard } from "./page-guard";
import { parsePageParams } from "./page-params";
import { RpcError, toWireError } from "./rpc-error";
import { identifySender, type MessageSender } from "./sender";
import { parseUiParams } from "./ui-params";

export interface PageContext {
  origin: string;
  tabId: number | undefined;
  frameId: number | undefined;
  /** The tab's top-level origin, when the browser says it (a frame may be another site's). */
  topOrigin?: string;
}

export interface UiContext {
  url: string;
  /** The tab the wallet page is in, when it is in one (not the popup). */
  tabId: number | undefined;
}

/** Page handlers; the router has checked their params (page-params.ts) before they run. */
export type PageHandlers = {
  [M in keyof PageMethods]: (
    params: PageParams<M>,
    context: PageContext,
  ) => Promise<PageMethods[M]["result"]>;
};

export type UiHandlers = {
  [M in keyof UiMethods]: (
    params: UiMethods[M]["params"],
    context: UiContext,
  ) => Promise<UiMethods[M]["result"]>;
};

export interface RouterOptions {
  extensionId: string;
  extensionBaseUrl: string;
  page: PageHandlers;
  ui: UiHandlers;
  /** Per-site limits on page requests; one per worker, made here unless a test brings its own. */
  pageGuard?: PageGuard;
}

/**
 * Builds the background's single `runtime.onMessage` listener. It always
 * answers with a `WireResponse` (never throws), so callers see typed errors.
 */
export function createRouter(options: RouterOptions) {
  const guard = options.pageGuard ?? new PageGuard();
  /** `ownWithdrawal`: the background's own on a page's behalf (its port closed), never rate-limited. */
  return async (
    message: unknown,
    sender: MessageSender,
    ownWithdrawal = false,
  ): Promise<WireResponse> => {
    const started = performance.now();
    const method = countedMethod(options, message);
    countRequest(method);
    try {
      const result = await dispatch(options, guard, message, sender, ownWithdrawal);
      return { ok: true, result };
    } catch (error) {
      return { ok: false, error: toWireError(error) };
    } finally {
      noteHandlingTime(method, performance.now() - started);
    }
  };
}

/** The method a message is counted under: its own when the wallet has it, else UNKNOWN_METHOD. */
function countedMethod(options: RouterOptions, message: unknown): string {
  if (!isBackgroundMessage(message)) return UNKNOWN_METHOD;
  const handlers = message.channel === "page" ? options.page : options.ui;
  return Object.hasOwn(handlers, message.method) ? message.method : UNKNOWN_METHOD;
}

async function dispatch(
  options: RouterOptions,
  guard: PageGuard,
  message: unknown,
  sender: MessageSender,
  ownWithdrawal: boolean,
): Promise<unknown> {
  if (!isBackgroundMessage(message)) {
    throw new RpcError(ErrorCode.InvalidRequest, "Malformed message: expected { channel, method }");
  }
  const identity = identifySender(sender, options.extensionId, options.extensionBaseUrl);
  if (message.channel === "page") {
    if (identity.kind !== "page") {
      throw new RpcError(ErrorCode.Unauthorized, "Page requests must come from a web page");
    }
    const context: PageContext = {
      origin: identity.origin,
      tabId: identity.tabId,
      frameId: identity.frameId,
      ...(identity.topOrigin === undefined ? {} : { topOrigin: identity.topOrigin }),
    };
    return dispatchPage(options.page, guard, message.method, message.params, context, {
      ownWithdrawal,
    });
  }
  if (identity.kind !== "extension") {
    throw new RpcError(
      ErrorCode.Unauthorized,
      `Only the wallet's own pages may call ${message.method}`,
    );
  }
  return dispatchUi(options.ui, message.method, message.params, {
    url: identity.url,
    tabId: identity.tabId,
  });
}

export interface ProxyRouterOptions {
  page: PageHandlers;
  /** Whether there is a wallet, and whether it is locked: what `proxy_status` answers. */
  walletState(): Promise<{ hasWallet: boolean; locked: boolean }>;
  pageGuard?: PageGuard;
}

/**
 * Answers the desktop proxy's requests (over the native link) as a caller of
 * their own: keyed "proxy:<upstream origin>" (budget-origin.ts), never a web
 * origin, through the same checked params, guard and handlers as a page's.
 * What a request names as its MCP server must be the upstream it declared.
 */
export function createProxyRouter(options: ProxyRouterOptions) {
  const guard = options.pageGuard ?? new PageGuard();
  /** `ownWithdrawal`: the background's own on a proxy's behalf (the host went away). */
  return async (request: ChannelRequest, ownWithdrawal = false): Promise<WireResponse> => {
    try {
      return { ok: true, result: await dispatchProxy(options, guard, request, ownWithdrawal) };
    } catch (error) {
      return { ok: false, error: toWireError(error) };
    }
  };
}

async function dispatchProxy(
  options: ProxyRouterOptions,
  guard: PageGuard,
  request: ChannelRequest,
  ownWithdrawal: boolean,
): Promise<unknown> {
  const origin = proxyCaller(request.upstream);
  if (origin === undefined) {
    throw new RpcError(ErrorCode.InvalidRequest, "The proxy's upstream must be an http(s) URL");
  }
  const known = request.method === "proxy_status" || Object.hasOwn(options.page, request.method);
  countRequest(known ? request.method : UNKNOWN_METHOD);
  if (request.method === "proxy_status") {
    const status: ProxyStatus = { version: PROVIDER_VERSION, ...(await options.walletState()) };
    return status;
  }
  const context: PageContext = { origin, tabId: undefined, frameId: undefined };
  return dispatchPage(options.page, guard, request.method, request.params, context, {
    ownWithdrawal,
    check: (params) => {
      const server = namedServer(params);
      if (server !== undefined && !sameUrl(server, request.upstream)) {
        throw new RpcError(
          ErrorCode.Unauthorized,
          `The proxy for ${request.upstream} may not ask about ${server}`,
        );
      }
    },
  });
}

/**
 * The server a request's params name (a price's, an elicitation's, a
 * sighting's): an HTTP price's URL is the endpoint that answered the tool
 * call with 402 (seed 004), which for a proxy is its upstream.
 */
function namedServer(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const { server, challenge } = params as { server?: unknown; challenge?: unknown };
  if (typeof server === "string") return server;
  if (typeof challenge !== "object" || challenge === null) return undefined;
  const { transport, server: challenged, url } = challenge as Record<string, unknown>;
  const named = transport === "mcp" ? challenged : url;
  return typeof named === "string" ? named : "a resource it does not name";
}

/** Whether two URLs are the same once parsed (a Request writes its URL out normalized). */
function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/**
 * A page request: counted against its site's rate first (an unknown method too), its params
 * checked, then handled (holding a slot if it pays). The withdrawal the background sends for a
 * caller that went away is not counted: it only takes back what that caller was admitted to ask,
 * and refused, it would leave the person a request nobody waits for.
 */
function dispatchPage<M extends PageMethod>(
  handlers: PageHandlers,
  guard: PageGuard,
  method: M,
  rawParams: unknown,
  context: PageContext,
  {
    ownWithdrawal = false,
    check,
  }: {
    ownWithdrawal?: boolean;
    /** A further check of the parsed params (the proxy's: they name its own server). */
    check?: (params: PageParams<M>) => void;
  } = {},
): Promise<PageMethods[M]["result"]> {
  if (!(ownWithdrawal && method === "stipendex_withdraw")) guard.admit(context.origin);
  const handler = lookup(handlers, method);
  const params = parsePageParams(method, rawParams);
  check?.(params);
  return guard.run(context, method, params, () => handler(params, context));
}

/** A wallet page's request: its params checked, then handled. */
function dispatchUi<M extends UiMethod>(
  handlers: UiHandlers,
  method: M,
  rawParams: unknown,
  context: UiContext,
): Promise<UiMethods[M]["result"]> {
  const handler = lookup(handlers, method);
  return handler(parseUiParams(method, rawParams), context);
}

/** The handler of `method`, own properties only (a page may name "toString" or "__proto__"). */
function lookup<H extends object, K extends keyof H & string>(handlers: H, method: K): H[K] {
  if (!Object.hasOwn(handlers, method)) {
    throw new RpcError(ErrorCode.MethodNotFound, `Unknown method: ${method}`);
  }
  return handlers[method];
}

function isBackgroundMessage(value: unknown): value is BackgroundMessage {
  if (typeof value !== "object" || value === null) return false;
  const { channel, method } = value as { channel?: unknown; method?: unknown };
  return (channel === "page" || channel === "ui") && typeof method === "string";
}
