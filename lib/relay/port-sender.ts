import type { PortRequest, PortResponse, WireResponse } from "../messages";
import type { SendToBackground } from "./relay";

/** The part of a `runtime.Port` the relay uses. */
export interface RelayPort {
  postMessage(message: PortRequest): void;
  onMessage: { addListener(listener: (message: PortResponse) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

/** The port closed (the worker stopped, the page entered the back/forward cache) before answering. */
export class PortClosedError extends Error {
  override name = "PortClosedError";
}

interface OpenPort {
  port: RelayPort;
  waiting: Map<
    number,
    { resolve: (response: WireResponse) => void; reject: (error: Error) => void }
  >;
}

/**
 * Sends page requests over one long-lived port instead of a message each: a
 * payment crosses to the background and back without the browser setting up
 * a channel each way. The port opens on the first request, and again on the
 * next one after it closed; the requests a closing port dropped reject, so
 * the relay's retry sends them again (a restarted worker resumes a payment
 * by its requestId).
 */
export function portSender(connect: () => RelayPort): SendToBackground {
  let current: OpenPort | undefined;
  let nextId = 1;
  const open = (): OpenPort => {
    const opened: OpenPort = { port: connect(), waiting: new Map() };
    opened.port.onMessage.addListener(({ id, response }) => {
      opened.waiting.get(id)?.resolve(response);
      opened.waiting.delete(id);
    });
    opened.port.onDisconnect.addListener(() => {
      if (current === opened) current = undefined;
      for (const { reject } of opened.waiting.values()) {
        reject(new PortClosedError("The wallet's port closed before it answered"));
      }
      opened.waiting.clear();
    });
    return opened;
  };
  return (message) =>
    new Promise<WireResponse>((resolve, reject) => {
      const id = nextId++;
      try {
        current ??= open();
        current.waiting.set(id, { resolve, reject });
        current.port.postMessage({ id, message });
      } catch (error) {
        // Connecting or posting failed (the port was already closed): the retry opens a fresh one.
        current?.waiting.delete(id);
        current = undefined;
        reject(error);
      }
    });
}
