import {
  type HookToRelay,
  type PageMethods,
  type PageRequest,
  ProviderRpcError,
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
 * The page side of the hook ⇄ relay channel. Captures the window's own
 * postMessage/addEventListener at install time (document_start), before any
 * page script can replace them.
 */
export function createBridge(win: Window): { request: Requester; notify: Notifier } {
  const post = win.postMessage.bind(win);
  const pending = new Map<string, { resolve(v: unknown): void; reject(e: unknown): void }>();

  win.addEventListener("message", (event: MessageEvent) => {
    if (event.source !== win) return;
    const data = event.data as Partial<RelayToHook> | null;
    if (!data || data.tag !== TO_PAGE || typeof data.id !== "string") return;
    const waiter = pending.get(data.id);
    if (!waiter || !data.response) return;
    pending.delete(data.id);
    if (data.response.ok) waiter.resolve(data.response.result);
    else waiter.reject(new ProviderRpcError(data.response.error));
  });

  const request = ((request: PageRequest) =>
    new Promise((resolve, reject) => {
      const id = randomId();
      pending.set(id, { resolve, reject });
      const message: HookToRelay = { tag: TO_RELAY, id, request };
      post(message, "*");
    })) as Requester;
  const notify: Notifier = (request) => {
    const message: HookToRelay = { tag: TO_RELAY, id: randomId(), request, noAnswer: true };
    post(message, "*");
  };
  return { request, notify };
}
