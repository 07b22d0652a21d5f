/** A paid answer read as an XMLHttpRequest shows it: its text, its body per `responseType`, its size. */
export async function xhrBody(
  paid: Response,
  responseType: XMLHttpRequestResponseType,
): Promise<{ text: string; body: unknown; size: number }> {
  const blob = await paid.blob();
  const text = await blob.text();
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
