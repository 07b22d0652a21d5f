import {
  type BackgroundMessage,
  ErrorCode,
  type PageMethods,
  type UiMethods,
  type WireResponse,
} from "../messages";
import { RpcError, toWireError } from "./rpc-error";
import { identifySender, type MessageSender } from "./sender";

export interface PageContext {
  origin: string;
  tabId: number | undefined;
  frameId: number | undefined;
}

export interface UiContext {
  url: string;
}

export type PageHandlers = {
  [M in keyof PageMethods]: (
    params: PageMethods[M]["params"],
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
}

/**
 * Builds the background's single `runtime.onMessage` listener. It always
 * answers with a `WireResponse` (never throws), so callers see typed errors.
 */
export function createRouter(options: RouterOptions) {
  return async (message: unknown, sender: MessageSender): Promise<WireResponse> => {
    try {
      const result = await dispatch(options, message, sender);
      return { ok: true, result };
    } catch (error) {
      return { ok: false, error: toWireError(error) };
    }
  };
}

async function dispatch(
  options: RouterOptions,
  message: unknown,
  sender: MessageSender,
): Promise<unknown> {
  if (!isBackgroundMessage(message)) {
    throw new RpcError(ErrorCode.InvalidRequest, "Malformed message: expected { channel, method }");
  }
  const identity = identifySender(sender, options.extensionId, options.extensionBaseUrl);
  if (message.channel === "page") {
    if (identity.kind !== "page") {
      throw new RpcError(ErrorCode.Unauthorized, "Page requests must come from a web page");
    }
    const handler = lookup(options.page, message.method);
    const context: PageContext = {
      origin: identity.origin,
      tabId: identity.tabId,
      frameId: identity.frameId,
    };
    return handler(message.params as never, context);
  }
  if (identity.kind !== "extension") {
    throw new RpcError(
      ErrorCode.Unauthorized,
      `Only the wallet's own pages may call ${message.method}`,
    );
  }
  const handler = lookup(options.ui, message.method);
  return handler(message.params as never, { url: identity.url });
}

function lookup<H extends object>(handlers: H, method: string): H[keyof H] {
  if (!Object.hasOwn(handlers, method)) {
    throw new RpcError(ErrorCode.MethodNotFound, `Unknown method: ${method}`);
  }
  return handlers[method as keyof H];
}

function isBackgroundMessage(value: unknown): value is BackgroundMessage {
  if (typeof value !== "object" || value === null) return false;
  const { channel, method } = value as { channel?: unknown; method?: unknown };
  return (channel === "page" || channel === "ui") && typeof method === "string";
}
