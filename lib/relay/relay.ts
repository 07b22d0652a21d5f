import {
  ErrorCode,
  type HookToRelay,
  type RelayToHook,
  TO_PAGE,
  TO_RELAY,
  type WireResponse,
} from "../messages";

export type SendToBackground = (message: unknown) => Promise<WireResponse>;

/**
 * The isolated-world relay: forwards tagged messages that this very window
 * posted to the background, and posts the answers back. It decides nothing;
 * the background takes the origin from the browser, not from here.
 */
export function startRelay(win: Window, send: SendToBackground): void {
  win.addEventListener("message", (event: MessageEvent) => {
    if (event.source !== win) return;
    const data = event.data as Partial<HookToRelay> | null;
    if (!isHookMessage(data)) return;
    const reply = (response: WireResponse) => {
      const message: RelayToHook = { tag: TO_PAGE, id: data.id, response };
      win.postMessage(message, "*");
    };
    send({ channel: "page", method: data.request.method, params: data.request.params }).then(
      reply,
      (error: unknown) =>
        reply({
          ok: false,
          error: {
            code: ErrorCode.Internal,
            message: `Wallet unreachable: ${error instanceof Error ? error.message : String(error)}`,
          },
        }),
    );
  });
}

function isHookMessage(data: Partial<HookToRelay> | null): data is HookToRelay {
  return (
    typeof data === "object" &&
    data !== null &&
    data.tag === TO_RELAY &&
    typeof data.id === "string" &&
    typeof data.request === "object" &&
    data.request !== null &&
    typeof data.request.method === "string"
  );
}
