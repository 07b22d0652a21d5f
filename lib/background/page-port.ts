import {
  PAGE_PORT,
  type PortRequest,
  type PortResponse,
  type WireResponse,
  withdrawableRequestId,
} from "../messages";
import type { MessageSender } from "./sender";

/** The part of a `runtime.Port` the background serves. */
export interface ServedPort {
  name: string;
  sender?: MessageSender;
  postMessage(message: PortResponse): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
  disconnect(): void;
}

/**
 * Answers a page relay's requests on its port (see relay/port-sender.ts),
 * each through the same router as a one-off message, for the sender the
 * browser attached to the port when it opened. Any other port is closed.
 * When the page closes its end (the tab closed, the frame navigated or went
 * into the back/forward cache), the payments and elicitations it was still
 * waiting for are withdrawn: nobody is left to use them.
 */
export function servePagePort(
  port: ServedPort,
  route: (
    message: unknown,
    sender: MessageSender,
    ownWithdrawal?: boolean,
  ) => Promise<WireResponse>,
): void {
  const sender = port.sender;
  if (port.name !== PAGE_PORT || !sender) {
    port.disconnect();
    return;
  }
  /** Request ids of the payments and elicitations asked on this port and not answered yet. */
  const waiting = new Set<string>();
  port.onMessage.addListener((request) => {
    if (!isPortRequest(request)) return;
    const requestId = withdrawableRequestId(request.message);
    if (requestId !== undefined) waiting.add(requestId);
    void route(request.message, sender).then((response) => {
      if (requestId !== undefined) waiting.delete(requestId);
      try {
        port.postMessage({ id: request.id, response });
      } catch {
        // The page closed the port (navigated, reloaded) before the answer: nobody is waiting.
      }
    });
  });
  port.onDisconnect.addListener(() => {
    for (const requestId of waiting) {
      const withdraw = { channel: "page", method: "stipendex_withdraw", params: { requestId } };
      void route(withdraw, sender, true);
    }
    waiting.clear();
  });
}

function isPortRequest(value: unknown): value is PortRequest {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { id?: unknown }).id === "number" &&
    "message" in value
  );
}
