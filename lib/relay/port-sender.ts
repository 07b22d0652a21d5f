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

/** The extension this relay belongs to was reloaded, updated or removed: nothing will answer. */
export class ExtensionGoneError extends Error {
  override name = "ExtensionGoneError";

  constructor() {
    // Chromium's own words for it, as the page's console shows them.
    super("Extension context invalidated: the wallet was reloaded, updated or removed");
  }
}

/** How often, while requests wait, the relay looks whether its extension is still there. */
export const EXTENSION_CHECK_MS = 1_000;

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
 * by its requestId). While requests wait, it looks every EXTENSION_CHECK_MS
 * whether the extension is still there (`extensionAlive`): Chromium was seen
 * to leave a request sent as the extension reloaded with neither an answer
 * nor a closed port, and the page's fetch waiting for good.
 */
export function portSender(
  connect: () => RelayPort,
  extensionAlive: () => boolean = () => true,
): SendToBackground {
  let current: OpenPort | undefined;
  let nextId = 1;
  let watch: ReturnType<typeof setInterval> | undefined;
  const watchExtension = () => {
    watch ??= setInterval(() => {
      const waiting = current?.waiting;
      if (waiting && waiting.size > 0 && extensionAlive()) return;
      clearInterval(watch);
      watch = undefined;
      if (!waiting || waiting.size === 0) return;
      current = undefined;
      for (const { reject } of waiting.values()) reject(new ExtensionGoneError());
      waiting.clear();
    }, EXTENSION_CHECK_MS);
  };
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
        watchExtension();
      } catch (error) {
        // Connecting or posting failed (the port was already closed): the retry opens a fresh one.
        current?.waiting.delete(id);
        current = undefined;
        reject(error);
      }
    });
}
