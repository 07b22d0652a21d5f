/**
 * Reads a body as text, or undefined when it is longer than `limit` bytes,
 * breaks off, or is not all in within `patienceMs` (when given); done once its
 * declared length is in, without waiting for the stream to end.
 */
export async function readCapped(
  response: Response,
  limit: number,
  patienceMs?: number,
): Promise<string | undefined> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > limit || !response.body) {
    // Not awaited: a clone's cancel settles only once the page's copy is read or cancelled too.
    response.body?.cancel().catch(() => undefined);
    return response.body ? undefined : "";
  }
  // Bytes as sent: a decoded body's length is not the one declared.
  const whole = response.headers.has("content-encoding") ? 0 : declared;
  const reader = response.body.getReader();
  const stop = () => {
    reader.cancel().catch(() => undefined);
  };
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  let late = false;
  const timer =
    patienceMs === undefined
      ? undefined
      : setTimeout(() => {
          late = true;
          // Answers the read waiting below at once, as done: taken as unread.
          stop();
        }, patienceMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (late) return undefined;
      if (done) return text + decoder.decode();
      size += value.byteLength;
      if (size > limit) {
        stop();
        return undefined;
      }
      // Streaming: a character split between chunks is decoded once its last byte arrives.
      text += decoder.decode(value, { stream: true });
      // Every declared byte is in: the stream's end would only add the wait for its close.
      if (whole > 0 && size === whole) {
        stop();
        return text + decoder.decode();
      }
    }
  } catch {
    // Broken off: unread, as one too long is.
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
