import { fakeBrowser } from "wxt/testing/fake-browser";
import { ErrorCode, type UiMethod, type UiMethods, type WireResponse } from "../../../lib/messages";

/** Test double of the background's `ui` channel: an answer per method, in memory. */
export type FakeUiHandlers = {
  [M in UiMethod]?: (
    params: UiMethods[M]["params"],
  ) => UiMethods[M]["result"] | Promise<UiMethods[M]["result"]>;
};

export interface FakeCall {
  method: UiMethod;
  params: unknown;
}

/**
 * Answers `runtime.sendMessage` like the background would, so UI code runs its
 * real client in tests. A handler that throws answers as a wire error.
 * Returns the log of calls received.
 */
export function installFakeBackground(handlers: FakeUiHandlers): FakeCall[] {
  const calls: FakeCall[] = [];
  fakeBrowser.runtime.onMessage.addListener(async (message: unknown): Promise<WireResponse> => {
    const { method, params } = message as FakeCall;
    calls.push({ method, params });
    const handler = handlers[method] as ((p: unknown) => unknown) | undefined;
    if (!handler) {
      return { ok: false, error: { code: ErrorCode.MethodNotFound, message: `no ${method}` } };
    }
    try {
      return { ok: true, result: await handler(params) };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      return { ok: false, error: { code: ErrorCode.Internal, message: text } };
    }
  });
  return calls;
}
