import type { ChannelRequest, NativeResponse, WireResponse } from "../messages";
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
  route(request: ChannelRequest): Promise<WireResponse>;
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
    port.onDisconnect.addListener(() => {
      if (this.port === port) this.port = undefined;
    });
    port.onMessage.addListener((message) => {
      const request = readNativeRequest(message);
      if (!request) return;
      const { link, ...asked } = request;
      void this.options.route(asked).then((response) => {
        try {
          port.postMessage({ link, id: request.id, response });
        } catch {
          // The host went away before the answer: its proxies saw the channel close.
        }
      });
    });
  }
}
