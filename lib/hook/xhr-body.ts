/** A paid answer read as an XMLHttpRequest shows it: its text, its body per `responseType`, its size. */
export async function xhrBody(
  paid: Response,
  responseType: XMLHttpRequestResponseType,
): Promise<{ text: string; body: unknown; size: number }> {
  const blob = await paid.blob();
  const text = decodeText(await blob.arrayBuffer(), paid.headers.get("content-type"));
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
                /html/.test(blob.type) ? "text/html" : "text/xml",
              )
            : text;
  return { text, body, size: blob.size };
}

/**
 * A response's bytes as XHR's `responseText` reads them: in the charset its
 * Content-Type names (a label the Encoding standard knows), else UTF-8.
 */
function decodeText(bytes: ArrayBuffer, contentType: string | null): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    // A label no decoder knows: read as UTF-8, as when none is named.
    return new TextDecoder().decode(bytes);
  }
}
