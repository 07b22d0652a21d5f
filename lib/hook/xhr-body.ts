/**
 * A paid answer read as an XMLHttpRequest shows it: its text, its body per
 * `responseType`, its size; read as `overrideMime` (the page's
 * overrideMimeType()) when given, as XHR's "final MIME type" is.
 */
export async function xhrBody(
  paid: Response,
  responseType: XMLHttpRequestResponseType,
  overrideMime?: string,
): Promise<{ text: string; body: unknown; size: number }> {
  const received = await paid.blob();
  const blob = overrideMime === undefined ? received : new Blob([received], { type: overrideMime });
  const mime = overrideMime ?? paid.headers.get("content-type");
  const text = decodeText(await blob.arrayBuffer(), mime);
  const body =
    responseType === "blob"
      ? blob
      : responseType === "arraybuffer"
        ? await blob.arrayBuffer()
        : responseType === "json"
          ? await new Response(blob).json().catch(() => null)
          : responseType === "document"
            ? new DOMParser().parseFromString(
                text,
                /html/.test(mime ?? "") ? "text/html" : "text/xml",
              )
            : text;
  return { text, body, size: blob.size };
}

/**
 * A response's bytes as XHR's `responseText` reads them: in the charset its
 * MIME type names (a label the Encoding standard knows, `x-user-defined`
 * for binary among them), else UTF-8.
 */
function decodeText(bytes: ArrayBuffer, mime: string | null): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(mime ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    // A label no decoder knows: read as UTF-8, as when none is named.
    return new TextDecoder().decode(bytes);
  }
}
