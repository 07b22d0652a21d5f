import {
  type ChannelRequest,
  type NativeResponse,
  type WireResponse,
  withdrawableRequestId,
} from "../messages";
import { readNativeRequest } from "../proxy/channel";

/** The part of a native messaging `runtime.Port` the link uses. */
export interface NativePort {
  postMessage(message: NativeResponse): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

export interface NativeLinkOptions {
  /** `runtime.connectNative(NATIVE_HOST_NAME)`: starts the native host. */
  connect(): NativePort;
  /** Answers one proxy request (router.ts createProxyRouter). */
  route(request: ChannelRequest, ownWithdrawal?: boolean): Promise<WireResponse>;
}

/**
 * The wallet's end of the link to desktop apps: a native messaging port to
 * the host that relays `stipendex-proxy` processes' requests. `ensure()`
 * opens it when it is not open (at start, and from an alarm, so a host that
 * was missing, crashed or was installed later is reached again).
 */
export class NativeLink {
  private port: NativePort | undefined;

  constructor(private readonly options: NativeLinkOptions) {}

  ensure(): void {
    if (this.port) return;
    let port: NativePort;
    try {
      port = this.options.connect();
    } catch {
      // No native messaging here (or no permission): the next alarm tries again.
      return;
    }
    this.port = port;
    /** The payments and elicitations still waiting for the person, by proxy and request id. */
    const waiting = new Map<string, { upstream: string; requestId: string }>();
    port.onDisconnect.addListener(() => {
      if (this.port === port) this.port = undefined;
      // The host is gone, and with it every proxy behind it: nobody is left to use them.
      for (const { upstream, requestId } of waiting.values()) {
        const params = { requestId };
        void this.options.route({ id: 0, upstream, method: "stipendex_withdraw", params }, true);
      }
      waiting.clear();
    });
    port.onMessage.addListener((message) => {
      const request = readNativeRequest(message);
      if (!request) return;
      const { link, ...asked } = request;
      const requestId = withdrawableRequestId(asked);
      const key = `${asked.upstream} ${requestId}`;
      if (requestId !== undefined) waiting.set(key, { upstream: asked.upstream, requestId });
      void this.options.route(asked).then((response) => {
        waiting.delete(key);
        try {
          port.postMessage({ link, id: request.id, response });
        } catch {
          // The host went away before the answer: its proxies saw the channel close.
        }
      });
    });
  }
}
