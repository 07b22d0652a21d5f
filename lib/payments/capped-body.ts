import { PaymentError } from "./errors";

/** The body as text, read no further than `limit` bytes nor past `signal` (a body can trickle). */
export async function readCapped(
  response: Response,
  limit: number,
  signal: AbortSignal,
): Promise<string> {
  const tooLarge = () =>
    new PaymentError("descriptor-fetch", `The body is larger than ${limit} bytes`);
  if (Number(response.headers.get("content-length")) > limit) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return "";
  signal.throwIfAborted();
  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) return text + decoder.decode();
      size += value.byteLength;
      if (size > limit) throw tooLarge();
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    // Stop the stream: nothing more is read from it.
    reader.cancel().catch(() => undefined);
    throw error;
  }
}
