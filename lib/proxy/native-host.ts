import { chmod, mkdir, unlink } from "node:fs/promises";
import { connect, createServer, type Socket } from "node:net";
import { ErrorCode, type NativeRequest, withdrawableRequestId } from "../messages";
import { type ChannelPlace, readChannelRequest, readNativeResponse } from "./channel";
import { isProxyError, ProxyError } from "./errors";
import { encodeFrame, MAX_HOST_TO_BROWSER, readFrames } from "./frame";
import { assertOwnDirectory } from "./wallet-channel";

export interface NativeHostOptions {
  /** The browser's end: native messaging frames in (stdin) and out (stdout). */
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  place: ChannelPlace;
  uid: number;
  /** Diagnostics (stderr): stdout belongs to the browser. */
  log(line: string): void;
}

/**
 * The native messaging host, started by the browser when the wallet connects:
 * listens on this user's local channel and relays each proxy's requests to
 * the wallet and its answers back, until the browser closes the port.
 *
 * Only this OS user can reach the socket: it lives in a directory of theirs
 * with mode 0700 (checked, and refused when it is not), and is itself 0600.
 * Node cannot read a Unix socket peer's uid, so the directory is the check.
 */
export async function runNativeHost(options: NativeHostOptions): Promise<void> {
  const { place, uid } = options;
  // Not recursive (its parent is the runtime or temp directory). One already there, or none made,
  // is for the check below: it takes only this user's own 0700 directory, never a link.
  await mkdir(place.directory, { mode: 0o700 }).catch(() => undefined);
  await assertOwnDirectory(place.directory, uid, async () => {
    return new ProxyError("channel-unsafe", `${place.directory} could not be made`);
  });
  await clearStaleSocket(place.socket);
  const links = new Map<number, Socket>();
  /** Per link, the payments and elicitations sent on and not answered yet, by message id. */
  const waiting = new Map<number, Map<number, { upstream: string; requestId: string }>>();
  let nextLink = 1;
  /** Set once the browser closed its end: nothing more is sent to it. */
  let browserGone = false;
  const toBrowser = (request: NativeRequest): void => {
    options.output.write(encodeFrame(request, MAX_HOST_TO_BROWSER));
  };
  const server = createServer((socket) => {
    const link = nextLink++;
    links.set(link, socket);
    waiting.set(link, new Map());
    readFrames(
      socket,
      (message) => {
        const request = readChannelRequest(message);
        if (!request) {
          options.log(`proxy connection ${link} sent a message that is not a request`);
          return;
        }
        // Noted before it is sent: the answer may come back before `toBrowser` returns.
        const requestId = withdrawableRequestId(request);
        if (requestId !== undefined) {
          waiting.get(link)?.set(request.id, { upstream: request.upstream, requestId });
        }
        try {
          toBrowser({ ...request, link });
        } catch (error) {
          waiting.get(link)?.delete(request.id);
          if (!isProxyError(error, "frame-too-large")) throw error;
          const response = {
            ok: false as const,
            error: { code: ErrorCode.InvalidRequest, message: error.message },
          };
          socket.write(encodeFrame({ id: request.id, response }));
        }
      },
      (error) => {
        options.log(`proxy connection ${link} sent an unreadable frame: ${String(error)}`);
        socket.destroy();
      },
    );
    socket.on("error", () => undefined);
    socket.on("close", () => {
      links.delete(link);
      // The proxy went away (its desktop app quit): what it still waits for is withdrawn, as that
      // proxy (same upstream), under the request's own message id (its answer finds no link).
      const left = browserGone ? [] : (waiting.get(link) ?? []);
      for (const [id, { upstream, requestId }] of left) {
        toBrowser({ link, id, upstream, method: "stipendex_withdraw", params: { requestId } });
      }
      waiting.delete(link);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(place.socket, () => resolve());
  });
  await chmod(place.socket, 0o600);
  options.log(`listening on ${place.socket}`);

  await new Promise<void>((resolve) => {
    readFrames(
      options.input,
      (message) => {
        const answer = readNativeResponse(message);
        if (answer) waiting.get(answer.link)?.delete(answer.id);
        const socket = answer && links.get(answer.link);
        if (answer && socket) {
          socket.write(encodeFrame({ id: answer.id, response: answer.response }));
        }
      },
      (error) => {
        // The browser's side out of step: nothing more can be read, so the host stops.
        options.log(`the browser sent an unreadable frame: ${String(error)}`);
        resolve();
      },
    );
    options.input.once("end", resolve);
    options.input.once("close", resolve);
    options.input.once("error", resolve);
  });
  browserGone = true;
  for (const socket of links.values()) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await unlink(place.socket).catch(() => undefined);
}

/** A socket left by a host that died is removed; one a live host answers on is not ours to take. */
async function clearStaleSocket(path: string): Promise<void> {
  const live = await new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
  if (live) {
    throw new ProxyError(
      "channel-busy",
      `Another wallet's native host already listens on ${path} (the wallet in another browser?)`,
    );
  }
  await unlink(path).catch(() => undefined);
}
