import { z } from "zod";
import type {
  ChannelRequest,
  ChannelResponse,
  NativeRequest,
  NativeResponse,
  ProxyMethod,
} from "../messages";

/*
 * The messages of the local channel (proxy ⇄ native host) and of the native
 * link (native host ⇄ background), read from frames. What does not fit is
 * dropped by the reader's caller: only the wallet's own parts speak here,
 * but a frame is still just bytes until it is read.
 */

const PROXY_METHODS = [
  "stipendex_pay",
  "stipendex_withdraw",
  "stipendex_receipt",
  "stipendex_elicit",
  "stipendex_reportMcpServer",
  "proxy_status",
] as const satisfies readonly ProxyMethod[];

const id = z.number().int().nonnegative();

const channelRequest = z.object({
  id,
  upstream: z.string().max(2048),
  method: z.enum(PROXY_METHODS),
  params: z.unknown().optional(),
});

const wireResponse = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }),
  }),
]);

const channelResponse = z.object({ id, response: wireResponse });

export function readChannelRequest(value: unknown): ChannelRequest | undefined {
  return channelRequest.safeParse(value).data as ChannelRequest | undefined;
}

export function readChannelResponse(value: unknown): ChannelResponse | undefined {
  return channelResponse.safeParse(value).data as ChannelResponse | undefined;
}

export function readNativeRequest(value: unknown): NativeRequest | undefined {
  return channelRequest.extend({ link: id }).safeParse(value).data as NativeRequest | undefined;
}

export function readNativeResponse(value: unknown): NativeResponse | undefined {
  return channelResponse.extend({ link: id }).safeParse(value).data as NativeResponse | undefined;
}

/** Where this user's channel lives: a directory only they may enter, and the socket in it. */
export interface ChannelPlace {
  directory: string;
  socket: string;
}

/**
 * The channel's place: `STIPENDEX_CHANNEL_DIR` when set (tests, or a person
 * who wants it elsewhere), else `$XDG_RUNTIME_DIR/stipendex` (per user, on
 * tmpfs), else `<tmp>/stipendex-<uid>`.
 */
export function channelPlace(
  env: Readonly<Record<string, string | undefined>>,
  tmpDir: string,
  uid: number,
): ChannelPlace {
  const directory =
    env.STIPENDEX_CHANNEL_DIR ||
    (env.XDG_RUNTIME_DIR ? `${env.XDG_RUNTIME_DIR}/stipendex` : `${tmpDir}/stipendex-${uid}`);
  return { directory, socket: `${directory}/wallet.sock` };
}
