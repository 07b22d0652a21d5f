import { lstat } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import {
  type ChannelRequest,
  type ElicitResult,
  ErrorCode,
  type PaymentAnswer,
  type ProxyMethod,
  type ProxyStatus,
  type WireError,
} from "../messages";
import { randomId } from "../random-id";
import { readChannelResponse } from "./channel";
import { ProxyError } from "./errors";
import { encodeFrame, readFrames } from "./frame";
import type { ProxyWallet } from "./paid-call";

/** How long the proxy waits for the native host to accept it: a live host answers at once. */
const CONNECT_TIMEOUT_MS = 3_000;
/** How long `proxy_status` may take: the background answers it from storage. */
const STATUS_TIMEOUT_MS = 5_000;

export interface ChannelOptions {
  socket: string;
  /** Where the native host would listen: checked to be this user's alone before connecting. */
  directory: string;
  uid: number;
  /** Says what to do when no host listens: whether `install` was run (manifests present). */
  installed(): Promise<boolean>;
}

/**
 * The proxy's end of the local channel: one connection to the native host,
 * opened on first use and again after it drops, carrying numbered requests.
 */
export class WalletChannel {
  private socket: Promise<Socket> | undefined;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve(result: unknown): void; reject(error: unknown): void }
  >();

  constructor(
    private readonly options: ChannelOptions,
    private readonly upstream: string,
  ) {}

  /** Asks the wallet; rejects with a ProxyError saying what to do when it cannot answer. */
  async request(method: ProxyMethod, params?: unknown): Promise<unknown> {
    const socket = await this.open();
    const id = this.nextId++;
    const message: ChannelRequest = { id, upstream: this.upstream, method, params };
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      socket.write(encodeFrame(message), (error) => {
        if (!error) return;
        this.waiting.delete(id);
        reject(linkLost(error));
      });
    });
  }

  /** Whether the wallet can pay now; rejects saying what the person must do first. */
  async ready(): Promise<ProxyStatus> {
    const status = (await withTimeout(
      this.request("proxy_status"),
      STATUS_TIMEOUT_MS,
      () =>
        new ProxyError(
          "wallet-not-running",
          "The Stipendex wallet did not answer within 5 s: is the browser busy or the extension disabled?",
        ),
    )) as ProxyStatus;
    if (!status.hasWallet) {
      throw new ProxyError(
        "no-wallet",
        "The Stipendex wallet has no wallet yet: create one in its popup in the browser, then retry",
      );
    }
    if (status.locked) {
      throw new ProxyError(
        "wallet-locked",
        "The Stipendex wallet is locked: unlock it in the browser (toolbar icon), then retry",
      );
    }
    return status;
  }

  close(): void {
    void this.socket?.then(
      (socket) => socket.destroy(),
      () => undefined,
    );
    this.socket = undefined;
  }

  private open(): Promise<Socket> {
    this.socket ??= this.connect().catch((error: unknown) => {
      this.socket = undefined;
      throw error;
    });
    return this.socket;
  }

  private async connect(): Promise<Socket> {
    await assertOwnDirectory(this.options.directory, this.options.uid, () => this.notRunning());
    const socket = await new Promise<Socket>((resolve, reject) => {
      const pending = connect(this.options.socket);
      const timer = setTimeout(() => {
        pending.destroy();
        void this.notRunning().then(reject, reject);
      }, CONNECT_TIMEOUT_MS);
      pending.once("connect", () => {
        clearTimeout(timer);
        resolve(pending);
      });
      pending.once("error", () => {
        clearTimeout(timer);
        void this.notRunning().then(reject, reject);
      });
    });
    readFrames(
      socket,
      (message) => this.answer(message),
      (error) => socket.destroy(error instanceof Error ? error : undefined),
    );
    socket.on("error", () => undefined);
    socket.on("close", () => {
      this.socket = undefined;
      const lost = linkLost();
      for (const pending of this.waiting.values()) pending.reject(lost);
      this.waiting.clear();
    });
    return socket;
  }

  private answer(message: unknown): void {
    const answer = readChannelResponse(message);
    const pending = answer && this.waiting.get(answer.id);
    if (!answer || !pending) return;
    this.waiting.delete(answer.id);
    if (answer.response.ok) pending.resolve(answer.response.result);
    else pending.reject(walletRefused(answer.response.error));
  }

  /** Why nobody listens, in the words of what to do about it. */
  private async notRunning(): Promise<ProxyError> {
    if (!(await this.options.installed())) {
      return new ProxyError(
        "link-not-installed",
        "The Stipendex wallet's link to desktop apps is not installed in any browser found in your home directory: run `npx stipendex-proxy install`, then restart the browser (for a browser started with its own --user-data-dir, `npx stipendex-proxy install --browser-dir <dir>`, then start that browser)",
      );
    }
    return new ProxyError(
      "wallet-not-running",
      "The Stipendex wallet is not reachable: start the browser that has the Stipendex Wallet extension, then retry",
    );
  }
}

/**
 * The channel's directory must be this user's alone: anyone else could stand
 * in for the wallet. A symlink is refused, not followed: in a shared /tmp its
 * owner could re-point it between this check and the connect.
 */
export async function assertOwnDirectory(
  directory: string,
  uid: number,
  missing: () => Promise<ProxyError>,
): Promise<void> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(directory);
  } catch {
    throw await missing();
  }
  if (!info.isDirectory() || info.uid !== uid || (info.mode & 0o077) !== 0) {
    throw new ProxyError(
      "channel-unsafe",
      `${directory} must be a directory (not a link) of user ${uid} that no one else may open (mode 0700); remove it and let the wallet make it again`,
    );
  }
}

function linkLost(cause?: unknown): ProxyError {
  return new ProxyError(
    "link-lost",
    "The link to the Stipendex wallet closed before it answered (was the browser closed?)",
    { cause },
  );
}

/** The wallet's refusal, with what the person can do about the ones they can. */
function walletRefused(error: WireError): ProxyError {
  if (error.code === ErrorCode.Locked) {
    return new ProxyError(
      "wallet-locked",
      "The Stipendex wallet is locked: unlock it in the browser, then retry",
    );
  }
  return new ProxyError("payment-not-made", error.message);
}

function withTimeout<T>(promise: Promise<T>, ms: number, late: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(late()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Asks the wallet once it can pay, under a fresh request id; when `signal`
 * aborts while it asks, the request is withdrawn (never signed), and one
 * aborted before is never asked.
 */
async function askWithdrawably(
  channel: WalletChannel,
  signal: AbortSignal | undefined,
  ask: (requestId: string) => Promise<unknown>,
): Promise<unknown> {
  await channel.ready();
  signal?.throwIfAborted();
  const requestId = randomId();
  const withdraw = () => {
    channel.request("stipendex_withdraw", { requestId }).catch(() => undefined);
  };
  signal?.addEventListener("abort", withdraw, { once: true });
  try {
    return await ask(requestId);
  } finally {
    signal?.removeEventListener("abort", withdraw);
  }
}

/**
 * The wallet as the proxy's paid calls use it. Paying (and answering a
 * payment elicitation) first asks whether the wallet can pay at all, so a
 * locked or absent wallet is an answer within seconds, not a wait.
 */
export function channelWallet(channel: WalletChannel): ProxyWallet {
  return {
    pay: async (challenge, signal) =>
      (await askWithdrawably(channel, signal, (requestId) =>
        channel.request("stipendex_pay", { requestId, challenge }),
      )) as PaymentAnswer,
    receipt: async (params) => {
      await channel.request("stipendex_receipt", params);
    },
    elicit: async (params, signal) =>
      (await askWithdrawably(channel, signal, (requestId) =>
        channel.request("stipendex_elicit", { ...params, requestId }),
      )) as ElicitResult,
    report: async (sighting) => {
      await channel.request("stipendex_reportMcpServer", sighting);
    },
  };
}
