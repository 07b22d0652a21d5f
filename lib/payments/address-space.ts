import { isLocalhostName } from "../protocol/loopback-host";
import { proxiedOrigin } from "../wallet/budget-origin";

/**
 * Where a host is, in the terms of the browsers' Private Network Access:
 * this machine ("local"), a private network ("private") or the internet
 * ("public"). Judged from the URL alone: the extension cannot resolve names,
 * so a public name that resolves to a private address passes as public.
 */
export type AddressSpace = "public" | "private" | "local";

const RANK: Record<AddressSpace, number> = { public: 0, private: 1, local: 2 };

/** A page may make the wallet ask hosts no more private than its own (a public page: public hosts only). */
export function mayReach(requester: AddressSpace, target: AddressSpace): boolean {
  return RANK[target] <= RANK[requester];
}

/**
 * The address space of an origin (a proxy caller's: its upstream server's);
 * anything unreadable counts as public, the most restricted.
 */
export function addressSpaceOfOrigin(origin: string): AddressSpace {
  try {
    return addressSpaceOf(new URL(proxiedOrigin(origin) ?? origin).hostname);
  } catch {
    return "public";
  }
}

/** `hostname` as `URL.hostname` gives it: IPv4 dotted, IPv6 bracketed and compressed, names lowercase. */
export function addressSpaceOf(hostname: string): AddressSpace {
  const host = hostname.replace(/\.$/, "");
  if (host.startsWith("[")) return ipv6Space(ipv6Pieces(host.slice(1, -1)));
  const v4 = ipv4Bytes(host);
  if (v4) return ipv4Space(v4);
  if (isLocalhostName(host)) return "local";
  if (host.endsWith(".local") || host.endsWith(".internal")) return "private";
  return "public";
}

function ipv4Bytes(host: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return match?.slice(1).map(Number);
}

function ipv4Space([a = 0, b = 0]: number[]): AddressSpace {
  // 0.0.0.0/8 reaches this machine on Linux and macOS.
  if (a === 127 || a === 0) return "local";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 169 && b === 254) return "private";
  return "public";
}

/** The eight 16-bit pieces of an IPv6 address in URL form (hex only, at most one "::"). */
function ipv6Pieces(text: string): number[] {
  const parse = (part: string | undefined) =>
    part ? part.split(":").map((piece) => Number.parseInt(piece, 16)) : [];
  const [head, tail] = text.split("::");
  const first = parse(head);
  const last = parse(tail);
  const zeros = tail === undefined ? 0 : 8 - first.length - last.length;
  return [...first, ...Array<number>(zeros).fill(0), ...last];
}

function ipv6Space(pieces: number[]): AddressSpace {
  const [p0 = 0, , , , , p5 = 0, p6 = 0, p7 = 0] = pieces;
  const leadingZero = pieces.slice(0, 5).every((piece) => piece === 0);
  // ::1 and the unspecified ::.
  if (leadingZero && p5 === 0 && p6 === 0 && p7 <= 1) return "local";
  // ::ffff:a.b.c.d is the IPv4 address a.b.c.d.
  if (leadingZero && p5 === 0xffff) return ipv4Space([p6 >> 8, p6 & 0xff]);
  if ((p0 & 0xfe00) === 0xfc00 || (p0 & 0xffc0) === 0xfe80) return "private";
  return "public";
}
