/** A body that sends `text`, then breaks off with `failure`, as a reset connection does. */
export function breakingOff(text: string, failure: Error): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (sent) return controller.error(failure);
      sent = true;
      controller.enqueue(new TextEncoder().encode(text));
    },
  });
}
