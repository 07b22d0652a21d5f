import { PAGE_PORT, type PortRequest, type PortResponse, type WireResponse } from "../messages";
import type { MessageSender } from "./sender";

/** The part of a `runtime.Port` the background serves. */
export interface ServedPort {
  name: string;
  sender?: MessageSender;
  postMessage(message: PortResponse): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  disconnect(): void;
}

/**
 * Answers a page relay's requests on its port (see relay/port-sender.ts),
 * each through the same router as a one-off message, for the sender the
 * browser attached to the port when it opened. Any other port is closed.
 */
export function servePagePort(
  port: ServedPort,
  route: (message: unknown, sender: MessageSender) => Promise<WireResponse>,
): void {
  const sender = port.sender;
  if (port.name !== PAGE_PORT || !sender) {
    port.disconnect();
    return;
  }
  port.onMessage.addListener((request) => {
    if (!isPortRequest(request)) return;
    void route(request.message, sender).then((response) => {
      try {
        port.postMessage({ id: request.id, response });
      } catch {
        // The page closed the port (navigated, reloaded) before the answer: nobody is waiting.
      }
    });
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
