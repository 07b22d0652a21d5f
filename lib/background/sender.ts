/**
 * Who sent a message, as the browser says — the only source of identity the
 * background trusts. A payload's own claims about its origin are ignored.
 */
export type MessageSender = {
  id?: string;
  url?: string;
  origin?: string;
  tab?: { id?: number };
  frameId?: number;
};

export type SenderIdentity =
  | { kind: "page"; origin: string; tabId: number | undefined; frameId: number | undefined }
  | { kind: "extension"; url: string }
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
  if (sender.url.startsWith(extensionBaseUrl)) return { kind: "extension", url: sender.url };
  let pageOrigin: string;
  try {
    pageOrigin = new URL(sender.url).origin;
  } catch {
    return { kind: "unknown" };
  }
  // Chrome reports `origin` (right for sandboxed and about:blank frames);
  // Firefox only the URL.
  const origin = sender.origin ?? pageOrigin;
  if (!/^https?:\/\/[^/]+$/.test(origin)) return { kind: "unknown" };
  return { kind: "page", origin, tabId: sender.tab?.id, frameId: sender.frameId };
}
