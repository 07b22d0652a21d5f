import {
  type BackgroundMessage,
  ErrorCode,
  type PageMethod,
  type PageMethods,
  type PageParams,
  type UiMethod,
  type UiMethods,
  type WireResponse,
} from "../messages";
import { countRequest } from "./diagnostics";
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
  return async (message: unknown, sender: MessageSender): Promise<WireResponse> => {
    try {
      const result = await dispatch(options, guard, message, sender);
      return { ok: true, result };
    } catch (error) {
      return { ok: false, error: toWireError(error) };
    }
  };
}

async function dispatch(
  options: RouterOptions,
  guard: PageGuard,
  message: unknown,
  sender: MessageSender,
): Promise<unknown> {
  if (!isBackgroundMessage(message)) {
    throw new RpcError(ErrorCode.InvalidRequest, "Malformed message: expected { channel, method }");
  }
  countRequest(message.method);
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
    return dispatchPage(options.page, guard, message.method, message.params, context);
  }
  if (identity.kind !== "extension") {
    throw new RpcError(
      ErrorCode.Unauthorized,
      `Only the wallet's own pages may call ${message.method}`,
    );
  }
  return dispatchUi(options.ui, message.method, message.params, { url: identity.url });
}

/** A page request: counted, its params checked, then handled (holding a slot if it pays). */
function dispatchPage<M extends PageMethod>(
  handlers: PageHandlers,
  guard: PageGuard,
  method: M,
  rawParams: unknown,
  context: PageContext,
): Promise<PageMethods[M]["result"]> {
  const handler = lookup(handlers, method);
  guard.admit(context.origin);
  const params = parsePageParams(method, rawParams);
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
