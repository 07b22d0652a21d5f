import {
  type HookToRelay,
  type PageMethods,
  type PageRequest,
  ProviderRpcError,
  RELAY_STARTED,
  type RelayToHook,
  TO_PAGE,
  TO_RELAY,
} from "../messages";
import { randomId } from "../random-id";

export type Requester = <M extends keyof PageMethods>(
  request: Extract<PageRequest, { method: M }>,
) => Promise<PageMethods[M]["result"]>;

/** Sends a request whose answer nobody waits for: the relay does not post one back. */
export type Notifier = (request: PageRequest) => void;

/**
 * The page side of the hook ⇄ relay channel: events on the window, each
 * carrying its message as JSON text (a string crosses from one world to the
 * other in every browser). Dispatching runs the relay's listener at once, where
 * a postMessage would wait for a task of its own each way. Captures what it
 * uses at install time (document_start), before any page script can replace it.
 */
export function createBridge(win: Window & typeof globalThis): {
  request: Requester;
  notify: Notifier;
} {
  const dispatch = win.dispatchEvent.bind(win);
  const { CustomEvent } = win;
  const { parse, stringify } = win.JSON;
  const post = (message: HookToRelay) =>
    dispatch(new CustomEvent(TO_RELAY, { detail: stringify(message) }));
  const pending = new Map<
    string,
    { resolve(v: unknown): void; reject(e: unknown): void; message: HookToRelay }
  >();

  win.addEventListener(TO_PAGE, (event) => {
    // The relay sends JSON text; whatever else the page dispatches fails here, in its own world.
    const data = parse((event as CustomEvent<string>).detail) as
      | Partial<RelayToHook>
      | typeof RELAY_STARTED
      | null;
    if (data === RELAY_STARTED) {
      for (const { message } of pending.values()) post(message);
      return;
    }
    if (typeof data?.id !== "string") return;
    const waiter = pending.get(data.id);
    if (!waiter || !data.response) return;
    pending.delete(data.id);
    if (data.response.ok) waiter.resolve(data.response.result);
    else waiter.reject(new ProviderRpcError(data.response.error));
  });

  const request = ((request: PageRequest) =>
    new Promise((resolve, reject) => {
      const message: HookToRelay = { id: randomId(), request };
      pending.set(message.id, { resolve, reject, message });
      post(message);
    })) as Requester;
  const notify: Notifier = (request) =>
    post({ id: randomId(), request, noAnswer: true } satisfies HookToRelay);
  return { request, notify };
}
