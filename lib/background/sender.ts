/**
 * Who sent a message, as the browser says — the only source of identity the
 * background trusts. A payload's own claims about its origin are ignored.
 */
export type MessageSender = {
  id?: string;
  url?: string;
  origin?: string;
  tab?: { id?: number; url?: string };
  frameId?: number;
};

export type SenderIdentity =
  | {
      kind: "page";
      origin: string;
      tabId: number | undefined;
      frameId: number | undefined;
      /** The tab's top-level origin (the "tabs" permission shows it), when known. */
      topOrigin?: string;
    }
  | { kind: "extension"; url: string; tabId: number | undefined }
  | { kind: "unknown" };

/**
 * Classifies a sender. Extension pages are recognised by URL prefix: content
 * scripts share the extension id, so the id alone would let a page's relay
 * pass as the wallet's UI. (`URL.origin` is "null" for moz-extension: URLs in
 * some engines, hence the prefix test.)
 */
export function identifySender(
  sender: MessageSender,
  extensionId: string,
  extensionBaseUrl: string,
): SenderIdentity {
  if (sender.id !== extensionId || !sender.url) return { kind: "unknown" };
  if (sender.url.startsWith(extensionBaseUrl)) {
    return { kind: "extension", url: sender.url, tabId: sender.tab?.id };
  }
  let pageOrigin: string;
  try {
    pageOrigin = new URL(sender.url).origin;
  } catch {
    return { kind: "unknown" };
  }
  // Chromium and Firefox (every version the manifest allows) report `origin`,
  // right where the URL is not: "null" for a sandboxed frame or a page a CSP
  // sandbox header serves (nobody in particular, so refused rather than shown
  // or budgeted), the creator's for about:blank. The URL's is only a fallback.
  const origin = sender.origin ?? pageOrigin;
  if (!/^https?:\/\/[^/]+$/.test(origin)) return { kind: "unknown" };
  // A frame whose top page has no web origin (a local file, a sandboxed or about: page) is
  // still inside another page: "null" says so, so that no budget pays for it on its own.
  const topOrigin =
    originOf(sender.tab?.url) ??
    (sender.frameId !== undefined && sender.frameId !== 0 ? OPAQUE_ORIGIN : undefined);
  return {
    kind: "page",
    origin,
    tabId: sender.tab?.id,
    frameId: sender.frameId,
    ...(topOrigin === undefined ? {} : { topOrigin }),
  };
}

/** How the browser writes an origin that is no site (RFC 6454). */
export const OPAQUE_ORIGIN = "null";

function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const { origin } = new URL(url);
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}
